import { hostname } from 'node:os'
import { recordImportOrigin } from '../export/datasetOrigin'
import { labelDeleters } from '../labels/discard'
import type { Db } from '../store/connection'
import { createDataset } from '../store/repos/datasets'
import { now } from '../store/repos/rows'
import { troubleKind } from '../store/trouble'
import { immediate } from './atomic'
import { ImportError } from './errors'

type NewDataset = Parameters<typeof createDataset>[1]

/**
 * Hidden datasets this process is filling right now. One of this process's hidden datasets that
 * is not here stopped part-way (a full disk that also refused the withdrawal): stoppedImports.ts
 * shows it rather than leaving it unseen until the next start.
 */
const filling = new Set<number>()

/** Whether this process is still filling the hidden dataset. */
export function isFilling(datasetId: number): boolean {
  return filling.has(datasetId)
}

/** The import of this hidden dataset has ended in this process, however it ended. */
export function stopFilling(datasetId: number): void {
  filling.delete(datasetId)
}

/** Items withdrawn per transaction, so a discarded large import never holds the write lock long. */
const DISCARD_ITEMS = 200

/**
 * Creates the dataset an import fills, hidden from every list until `publishDataset`, and
 * records which process fills it (so a later open can tell a crash from a live import).
 */
export function createHiddenDataset(db: Db, input: NewDataset, itemsInFile: number | null = null): number {
  return immediate(db, () => {
    const existing = db.prepare('SELECT state FROM datasets WHERE name = ?').get(input.name) as
      | { state: string }
      | undefined
    if (existing?.state === 'importing')
      throw new ImportError(
        `A dataset named "${input.name}" is being imported right now; wait for it to finish or choose another dataset name`,
      )
    let id: number
    try {
      id = createDataset(db, input).id
    } catch (error) {
      // A full disk or a read-only file is no fault of the name (importFile says what it is).
      if (troubleKind(error)) throw error
      throw new ImportError(`${(error as Error).message}; choose another dataset name`)
    }
    db.prepare("UPDATE datasets SET state = 'importing' WHERE id = ?").run(id)
    db.prepare('INSERT INTO dataset_imports (dataset_id, pid, host, started_at) VALUES (?, ?, ?, ?)').run(
      id,
      process.pid,
      hostname(),
      now(),
    )
    // Known when cheap (rowTotal.ts): a stopped import then says how far it got.
    if (itemsInFile !== null)
      db.prepare('INSERT INTO dataset_import_totals (dataset_id, items) VALUES (?, ?)').run(id, itemsInFile)
    filling.add(id)
    return id
  })
}

/** Makes a fully imported dataset visible, all at once. */
export function publishDataset(db: Db, datasetId: number): void {
  immediate(db, () => {
    const done = db
      .prepare("UPDATE datasets SET state = 'ready' WHERE id = ? AND state = 'importing'")
      .run(datasetId)
    // Only a clean-up that mistook this import for a crashed one could have removed it.
    if (done.changes !== 1)
      throw new ImportError('The import was withdrawn before it finished; nothing was imported')
    db.prepare('DELETE FROM dataset_imports WHERE dataset_id = ?').run(datasetId)
    db.prepare('DELETE FROM dataset_import_totals WHERE dataset_id = ?').run(datasetId)
    db.prepare('DELETE FROM dataset_import_annotators WHERE dataset_id = ?').run(datasetId)
    recordImportOrigin(db, datasetId)
  })
}

/**
 * Withdraws a hidden dataset and everything the import wrote into it, a few items per
 * transaction. Only ever touches a dataset still marked 'importing', so a visible dataset (and
 * what people labelled in it) can never go this way. Annotators the import added go too, unless
 * something else refers to them by now.
 */
export function discardDataset(db: Db, datasetId: number): void {
  const hidden = db.prepare("SELECT 1 FROM datasets WHERE id = ? AND state = 'importing'")
  // Last items first: the counters' triggers look for a variant's new first candidate whenever
  // the current one goes, a read of the whole dataset that deleting from the end never needs.
  const batch = db.prepare('SELECT id FROM items WHERE dataset_id = ? ORDER BY position DESC LIMIT ?')
  const ofItems =
    'SELECT id FROM targets WHERE dataset_id = @ds AND item_id IN (SELECT value FROM json_each(@ids))'
  const clear = [
    ...labelDeleters(db, ofItems),
    db.prepare('DELETE FROM items WHERE id IN (SELECT value FROM json_each(@ids))'),
  ]
  for (;;) {
    const more = immediate(db, () => {
      if (!hidden.get(datasetId)) return false
      // Verdicts hold targets without a cascade; no run should exist here, but none may block.
      db.prepare('DELETE FROM runs WHERE dataset_id = ?').run(datasetId)
      const ids = (batch.all(datasetId, DISCARD_ITEMS) as { id: number }[]).map((r) => r.id)
      if (ids.length === 0) {
        const added = db
          .prepare('SELECT annotator_id AS id FROM dataset_import_annotators WHERE dataset_id = ?')
          .all(datasetId) as { id: number }[]
        db.prepare("DELETE FROM datasets WHERE id = ? AND state = 'importing'").run(datasetId)
        const drop = db.prepare('DELETE FROM annotators WHERE id = ?')
        for (const a of added) {
          try {
            drop.run(a.id)
          } catch {
            // Referenced since (a label, a setting): the name stays, which loses nothing.
          }
        }
        return false
      }
      const params = { ds: datasetId, ids: JSON.stringify(ids) }
      for (const stmt of clear) stmt.run(params)
      return true
    })
    if (!more) break
  }
}

/** The process that fills a hidden dataset is gone when it ran on this host and its pid is dead. */
export function isAbandoned(owner: { pid: number; host: string } | null): boolean {
  if (!owner) return true
  if (owner.host !== hostname() || owner.pid === process.pid) return false
  try {
    process.kill(owner.pid, 0)
    return false
  } catch (error) {
    // EPERM: the process exists but belongs to another user, so it is alive.
    return (error as { code?: string }).code === 'ESRCH'
  }
}

/**
 * Withdraws the hidden datasets of imports whose process died (a crash, a killed CLI). Called
 * when a workspace opens; an import still running elsewhere is left alone.
 */
export function removeAbandonedImports(db: Db): number[] {
  const rows = db
    .prepare(
      `SELECT d.id AS id, i.pid AS pid, i.host AS host FROM datasets d
       LEFT JOIN dataset_imports i ON i.dataset_id = d.id WHERE d.state = 'importing'`,
    )
    .all() as { id: number; pid: number | null; host: string | null }[]
  const removed: number[] = []
  for (const r of rows) {
    const owner = r.pid === null || r.host === null ? null : { pid: r.pid, host: r.host }
    if (!isAbandoned(owner)) continue
    discardDataset(db, r.id)
    removed.push(r.id)
  }
  return removed
}

/**
 * How many datasets anyone can see. Works on a schema from before migration 0050 too, where
 * every dataset is visible (migration tests seed such workspaces through the demo loader).
 */
export function visibleDatasetCount(db: Db): number {
  const hasState = db.prepare("SELECT 1 FROM pragma_table_info('datasets') WHERE name = 'state'").get()
  const sql = hasState
    ? "SELECT COUNT(*) AS n FROM datasets WHERE state = 'ready'"
    : 'SELECT COUNT(*) AS n FROM datasets'
  return (db.prepare(sql).get() as { n: number }).n
}
