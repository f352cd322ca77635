import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { cli } from '../helpers/cli'
import { demoWorkspaceIn } from '../helpers/demoWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

const demoWorkspace = () => demoWorkspaceIn(tmp())

describe('factlab CLI: workspace commands', () => {
  it('lists datasets as JSON with per-annotator progress', async () => {
    const file = demoWorkspace()
    const r = await cli(['datasets', '--workspace', file, '--json'])
    expect(r.code).toBe(0)
    const rows = JSON.parse(r.out) as {
      name: string
      items: number
      labelled: Record<string, number>
    }[]
    expect(rows[0]?.name).toBe('Demo: WikiEval-style')
    expect(rows[0]?.items).toBe(12)
    expect(Object.keys(rows[0]?.labelled ?? {})).toEqual(['alex', 'sam'])
  })

  it('lists each dataset with the number --dataset takes', async () => {
    const file = demoWorkspace()
    const r = await cli(['datasets', '--workspace', file])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^#1 {2}Demo: WikiEval-style {2}\(faaf\) {2}12 items/)
    const byNumber = await cli(['units', 'list', '--dataset', '#1', '--item', 'demo-01', '--workspace', file])
    expect(byNumber.code, byNumber.err).toBe(0)
  })

  it('exits 2 on a usage error and 1 on a bad workspace file', async () => {
    expect((await cli(['datasets'])).code).toBe(2)
    const notADb = join(tmp(), 'x.factlab')
    const { writeFileSync } = await import('node:fs')
    writeFileSync(notADb, 'this is not sqlite')
    const bad = await cli(['datasets', '--workspace', notADb])
    expect(bad.code).toBe(1)
    expect(bad.err).toMatch(/is not a FactLab workspace \(not an SQLite file\)/)
  })

  it('backs up and restores the newest backup in one step', async () => {
    const file = demoWorkspace()
    const r = await cli(['backup', '--workspace', file, '--json'])
    expect(r.code).toBe(0)
    const { backup } = JSON.parse(r.out) as { backup: string }
    expect(existsSync(backup)).toBe(true)
    const ws = Workspace.open(file)
    ws.db.prepare("UPDATE datasets SET name = 'changed'").run()
    ws.close()
    expect((await cli(['restore', '--workspace', file])).code).toBe(0)
    const back = Workspace.open(file)
    expect((back.db.prepare('SELECT name FROM datasets').get() as { name: string }).name).toBe(
      'Demo: WikiEval-style',
    )
    back.close()
    expect(existsSync(`${file}.before-restore`)).toBe(true)
  })
})
