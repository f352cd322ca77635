import { spawn, spawnSync } from 'node:child_process'
import { hostname } from 'node:os'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { importFile } from '../../src/main/import'
import { createHiddenDataset, isAbandoned, removeAbandonedImports } from '../../src/main/import/hidden'
import { openWorkspace } from '../../src/main/store/connection'
import { listDatasets } from '../../src/main/store/repos/datasets'
import { holisticSchema } from '../../src/shared/labelSchemas'
import { checkSearchIndex, GRADED, gradedFile, snapshot } from './graded'
import { fixture, rows, workspaces } from './helpers'

const { ws: newWs, dir } = workspaces()

const hiddenItems = (ws: Workspace) =>
  (
    ws.db
      .prepare(
        `SELECT c.items AS n FROM datasets d JOIN dataset_counts c ON c.dataset_id = d.id
         WHERE d.name = 'crashed' AND d.state = 'importing'`,
      )
      .get() as { n: number } | undefined
  )?.n ?? 0

/** A pid that certainly belongs to no running process: one that has just exited. */
function deadPid(): number {
  const done = spawnSync(process.execPath, ['-e', ''])
  if (done.pid === undefined) throw new Error('could not start a short-lived process')
  return done.pid
}

describe('an import cut short by a crash', () => {
  it('leaves a hidden dataset that the next open withdraws, restoring the workspace', async () => {
    const ws = newWs()
    await importFile(ws, { file: fixture('wikievalfacts.csv'), datasetName: 'labelled' })
    const before = snapshot(ws)
    const file = gradedFile(dir(), 40_000)
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/import/importChild.ts', ws.file, file], {
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
    // Generous: on a loaded machine the child takes a while to start.
    const deadline = Date.now() + 60_000
    while (hiddenItems(ws) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    child.kill('SIGKILL')
    await exited

    // Killed mid-way: part of the file is in, out of everyone's sight.
    const stranded = hiddenItems(ws)
    expect(stranded).toBeGreaterThan(0)
    expect(stranded).toBeLessThan(40_000)
    expect(listDatasets(ws.db).map((d) => d.name)).toEqual(['labelled'])
    ws.close()

    const reopened = Workspace.open(ws.file)
    try {
      expect(snapshot(reopened)).toEqual(before)
      checkSearchIndex(reopened)
    } finally {
      reopened.close()
    }
  }, 90_000)

  it('an open leaves alone an import whose process is alive, here or in another process', async () => {
    const ws = newWs()
    const db = openWorkspace(ws.file, { skipQuickCheck: true })
    const schema = holisticSchema()
    const mine = createHiddenDataset(db, { name: 'mine', labelSchema: schema })
    const parent = createHiddenDataset(db, { name: 'parent', labelSchema: schema })
    const dead = createHiddenDataset(db, { name: 'dead', labelSchema: schema })
    const elsewhere = createHiddenDataset(db, { name: 'elsewhere', labelSchema: schema })
    const owner = db.prepare('UPDATE dataset_imports SET pid = ?, host = ? WHERE dataset_id = ?')
    owner.run(process.ppid, hostname(), parent)
    owner.run(deadPid(), hostname(), dead)
    owner.run(deadPid(), `not-${hostname()}`, elsewhere)
    db.close()

    expect(removeAbandonedImports(ws.db)).toEqual([dead])
    expect(rows(ws, "SELECT id FROM datasets WHERE state = 'importing' ORDER BY id")).toEqual(
      [mine, parent, elsewhere].map((id) => ({ id })),
    )
    // Another host's process cannot be checked from here, so it is never taken for dead.
    expect(isAbandoned({ pid: deadPid(), host: `not-${hostname()}` })).toBe(false)
    expect(isAbandoned({ pid: deadPid(), host: hostname() })).toBe(true)
  })

  it('a workspace opened again while this process imports does not disturb the import', async () => {
    const ws = newWs()
    const file = gradedFile(dir(), 2000)
    let reopenedMidway = false
    const report = await importFile(ws, {
      file,
      mapping: GRADED,
      datasetName: 'crashed',
      onProgress: (n) => {
        if (n !== 1000 || hiddenItems(ws) === 0) return
        Workspace.open(ws.file).close()
        reopenedMidway = true
      },
    })
    expect(reopenedMidway).toBe(true)
    expect(report.items).toBe(2000)
    expect(listDatasets(ws.db).map((d) => d.name)).toEqual(['crashed'])
  })
})

describe('withdrawing a crashed import when the workspace opens', () => {
  it('does not keep the workspace shut while another process holds the write lock', () => {
    const ws = newWs()
    const db = openWorkspace(ws.file, { skipQuickCheck: true })
    const dead = createHiddenDataset(db, { name: 'dead', labelSchema: holisticSchema() })
    db.prepare('UPDATE dataset_imports SET pid = ? WHERE dataset_id = ?').run(deadPid(), dead)
    db.exec('BEGIN IMMEDIATE')
    try {
      // Waits out the busy timeout, then opens anyway; the withdrawal is left for the next open.
      const busy = Workspace.open(ws.file)
      expect(listDatasets(busy.db)).toEqual([])
      busy.close()
    } finally {
      db.exec('ROLLBACK')
      db.close()
    }
    const later = Workspace.open(ws.file)
    expect(rows(later, 'SELECT id FROM datasets')).toEqual([])
    later.close()
  }, 30_000)
})
