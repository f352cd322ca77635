import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { seedWorkspace, wsFile } from './seed'

/*
 * What an export leaves in its folder when it cannot finish: a kill leaves `<file>.partial`
 * (never a finished name), which the next export replaces; a full disk leaves nothing at all.
 */

const fsState = vi.hoisted(() => ({ full: false }))
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>()
  const noSpace = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
  return {
    ...fs,
    writeSync: (...args: Parameters<typeof fs.writeSync>) => {
      if (fsState.full) throw noSpace()
      return fs.writeSync(...args)
    },
  }
})

const tmp = tmpDirs()
afterEach(() => {
  fsState.full = false
})

function workspace(): { file: string; dir: string } {
  const dir = tmp()
  seedWorkspace(wsFile(dir)).ws.close()
  return { file: wsFile(dir), dir }
}

const exportTo = (file: string, out: string) =>
  cli(['export', '--workspace', file, '--dataset', 'wikievalfacts', '--format', 'jsonl', '--out', out])

describe('an export into a folder an earlier, killed export left', () => {
  it('replaces that export’s .partial leftover and says so', async () => {
    const { file, dir } = workspace()
    const out = join(dir, 'out')
    mkdirSync(out)
    writeFileSync(join(out, 'data.jsonl.partial'), '{"id": "half a row')
    const r = await exportTo(file, out)
    expect(r.code, r.err).toBe(0)
    expect(r.out).toContain(
      'Replaced data.jsonl.partial, left in the folder by an unfinished earlier export.',
    )
    expect(readdirSync(out).sort()).toEqual(['README.md', 'data.jsonl'])
    expect(readFileSync(join(out, 'data.jsonl'), 'utf8')).not.toContain('half a row')
  })

  it('never writes over finished files, and names the leftover beside them', async () => {
    const { file, dir } = workspace()
    const out = join(dir, 'out')
    mkdirSync(out)
    writeFileSync(join(out, 'data.jsonl'), 'mine\n')
    writeFileSync(join(out, 'data.csv.partial'), 'half')
    const r = await exportTo(file, out)
    expect(r.code).toBe(1)
    expect(r.err).toBe(
      `factlab: The folder ${out} already holds files (data.jsonl); data.csv.partial beside them is left from an unfinished earlier export. Choose a new or empty folder so nothing in it is overwritten\n`,
    )
    expect(readFileSync(join(out, 'data.jsonl'), 'utf8')).toBe('mine\n')
    expect(existsSync(join(out, 'data.csv.partial'))).toBe(true)
  })
})

describe('an export onto a full disk', () => {
  it('says so plainly and leaves no folder or file behind', async () => {
    const { file, dir } = workspace()
    const out = join(dir, 'exports', 'today')
    fsState.full = true
    const r = await exportTo(file, out)
    expect(r.code).toBe(1)
    expect(r.err).toMatch(
      new RegExp(
        `^factlab: The disk holding ${out} is full( \\(.+ free\\))?: the export was not written, and nothing of it was left there\\n$`,
      ),
    )
    expect(existsSync(join(dir, 'exports'))).toBe(false)
  })

  it('into an empty folder of the person’s leaves it empty', async () => {
    const { file, dir } = workspace()
    const out = join(dir, 'mine')
    mkdirSync(out)
    fsState.full = true
    expect((await exportTo(file, out)).code).toBe(1)
    expect(readdirSync(out)).toEqual([])
  })
})
