import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { writeFilesTogether } from '../../src/main/export/sink'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { modelFile } from '../helpers/refcheckerRelease'
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
const app = testApps()
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

describe('the RefChecker layout, whose files sit in a sub-folder', () => {
  /** A workspace holding a two-model RefChecker release named "zero_context", and its dataset id. */
  async function release() {
    const dir = tmp()
    const a = app(join(dir, 'w.factlab'))
    const { datasetId } = await a.value<{ datasetId: number }>('datasets.import', {
      source: { path: modelFile('chatgpt') },
      moreSources: [{ path: modelFile('gpt4') }],
      datasetName: 'zero_context',
    })
    return { dir, a, datasetId }
  }

  it('replaces the .partial files a killed export left in the sub-folder, and says so', async () => {
    const { dir, a, datasetId } = await release()
    const out = join(dir, 'out')
    mkdirSync(join(out, 'zero_context'), { recursive: true })
    writeFileSync(join(out, 'zero_context', 'nq_chatgpt_answers.json.partial'), '[{"id": "half')
    writeFileSync(join(out, 'zero_context', 'nq_gpt4_answers.json.partial'), '')
    const r = await a.value<{ files: string[]; note?: string }>('exports.dataset', {
      datasetId,
      format: 'refchecker-json',
      outDir: out,
    })
    expect(r.note).toContain(
      'Replaced zero_context/nq_chatgpt_answers.json.partial, zero_context/nq_gpt4_answers.json.partial, left in the folder by an unfinished earlier export.',
    )
    expect(readdirSync(join(out, 'zero_context')).sort()).toEqual([
      'nq_chatgpt_answers.json',
      'nq_gpt4_answers.json',
    ])
    expect(readFileSync(join(out, 'zero_context', 'nq_chatgpt_answers.json'), 'utf8')).not.toContain('half')
  })

  it('never removes a sub-folder that holds a finished file', async () => {
    const { dir, a, datasetId } = await release()
    const out = join(dir, 'out')
    mkdirSync(join(out, 'zero_context'), { recursive: true })
    writeFileSync(join(out, 'zero_context', 'notes.txt'), 'mine\n')
    writeFileSync(join(out, 'zero_context', 'nq_gpt4_answers.json.partial'), '')
    const r = await a.call('exports.dataset', { datasetId, format: 'refchecker-json', outDir: out })
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error.message).toContain(`The folder ${out} already holds files (zero_context)`)
    expect(readFileSync(join(out, 'zero_context', 'notes.txt'), 'utf8')).toBe('mine\n')
  })

  it('keeps every file of the set .partial until the last is complete, so a kill leaves only leftovers', () => {
    const dir = tmp()
    let seenWhileWritingSecond: string[] = []
    writeFilesTogether([
      { file: join(dir, 'a.json'), fill: (sink) => sink.write('[]\n') },
      {
        file: join(dir, 'b.json'),
        fill: (sink) => {
          seenWhileWritingSecond = readdirSync(dir).sort()
          sink.write('[]\n')
        },
      },
    ])
    expect(seenWhileWritingSecond).toEqual(['a.json.partial', 'b.json.partial'])
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.json'])
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
