import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { runCli } from '../../src/main/cli/index'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
let out: string[] = []
let err: string[] = []

beforeEach(() => {
  out = []
  err = []
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    out.push(String(s))
    return true
  })
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    err.push(String(s))
    return true
  })
})
afterEach(() => vi.restoreAllMocks())

function demoWorkspace(): string {
  const file = join(tmp(), 'w.factlab')
  const ws = Workspace.open(file)
  loadDemoIfEmpty(ws)
  ws.close()
  return file
}

describe('factlab CLI: workspace commands', () => {
  it('lists datasets as JSON with per-annotator progress', async () => {
    const file = demoWorkspace()
    expect(await runCli(['datasets', '--workspace', file, '--json'])).toBe(0)
    const rows = JSON.parse(out.join('')) as {
      name: string
      items: number
      labelled: Record<string, number>
    }[]
    expect(rows[0]?.name).toBe('Demo: WikiEval-style')
    expect(rows[0]?.items).toBe(12)
    expect(Object.keys(rows[0]?.labelled ?? {})).toEqual(['alex', 'sam'])
  })

  it('exits 2 on a usage error and 1 on a bad workspace file', async () => {
    expect(await runCli(['datasets'])).toBe(2)
    const notADb = join(tmp(), 'x.factlab')
    const { writeFileSync } = await import('node:fs')
    writeFileSync(notADb, 'this is not sqlite')
    expect(await runCli(['datasets', '--workspace', notADb])).toBe(1)
    expect(err.join('')).toMatch(/Cannot open workspace/)
  })

  it('backs up and restores the newest backup in one step', async () => {
    const file = demoWorkspace()
    expect(await runCli(['backup', '--workspace', file, '--json'])).toBe(0)
    const { backup } = JSON.parse(out.join('')) as { backup: string }
    expect(existsSync(backup)).toBe(true)
    const ws = Workspace.open(file)
    ws.db.prepare("UPDATE datasets SET name = 'changed'").run()
    ws.close()
    expect(await runCli(['restore', '--workspace', file])).toBe(0)
    const back = Workspace.open(file)
    expect((back.db.prepare('SELECT name FROM datasets').get() as { name: string }).name).toBe(
      'Demo: WikiEval-style',
    )
    back.close()
    expect(existsSync(`${file}.before-restore`)).toBe(true)
  })
})
