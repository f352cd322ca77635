import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { LabelSchema } from '../../shared/labelSchemas'
import type { Db } from '../store/connection'
import { dataVersion } from '../store/version'
import { type DisputedTarget, disputeQueries, disputesKey, hasDisputes, keepDisputes } from './disputes'
import { workerAnswer } from './workerAnswer'

/**
 * The adjudication queue's list of a large dataset, read on the second core while the Agreement
 * view's figures take the first: a worker thread with a read-only connection of its own (WAL lets
 * it read beside the app's connection) runs the queue's two statements and orders the rows. At a
 * million targets that takes the queue's read (a hundred milliseconds and more) off the thread
 * that answers the view.
 *
 * The list is used only if the workspace's data did not change from the start of the read to its
 * use: the version (this connection's change count less its cache writes, and `data_version`)
 * taken before the worker starts is taken again once its list is back, and any commit in between,
 * by this connection or another, moves it. The worker's read began after the first and ended
 * before the second, so with the two equal it saw the rows the app's connection sees. The label
 * and target blocks the figures store meanwhile are copies of rows and do not count. Otherwise the
 * list is dropped and the queue reads as before.
 */

/** Below this many targets the queue's read is quick enough on the app's own thread. */
export const BACKGROUND_FROM_TARGETS = 50_000

// The worker is given as source text, as store/integrity.ts does: no separate file to bundle.
// Its order is disputes.ts's ORDER over the rows' columns (target, decided, ip, cid, up).
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
let db
try {
  db = new Database(workerData.file, { readonly: true, fileMustExist: true })
  db.pragma('busy_timeout = 5000')
  const rows = db.transaction(() =>
    workerData.queries.flatMap((sql) => db.prepare(sql).raw().all(workerData.params)),
  )()
  rows.sort((a, b) => a[2] - b[2] || a[3] - b[3] || a[4] - b[4] || a[0] - b[0])
  const ids = new Float64Array(rows.length)
  const decided = new Uint8Array(rows.length)
  for (let i = 0; i < rows.length; i++) {
    ids[i] = rows[i][0]
    decided[i] = rows[i][1]
  }
  parentPort.postMessage({ ids, decided }, [ids.buffer, decided.buffer])
} catch (error) {
  parentPort.postMessage({ problem: error instanceof Error ? error.message : String(error) })
} finally {
  if (db) db.close()
}
`

interface Pending {
  /** The data version the read started at, with what it read. */
  at: string
  list: Promise<DisputedTarget[] | null>
  worker: Worker
}

const readKey = (db: Db, schema: LabelSchema, datasetId: number, variant: string | null) =>
  `${dataVersion(db)}:${datasetId}:${variant ?? ''}:${JSON.stringify(schema)}`

const pending = new WeakMap<Db, Pending>()

/**
 * Starts reading the queue's list in the background, unless it is kept or being read already,
 * the dataset is small, its labels are numbers (their queue takes the full pass), or the
 * workspace has no file a second connection could open.
 */
export function startDisputes(
  db: Db,
  schema: LabelSchema,
  datasetId: number,
  variant: string | null,
  fromTargets = BACKGROUND_FROM_TARGETS,
): void {
  if (schema.type === 'numeric' || db.memory || !db.open) return
  const at = readKey(db, schema, datasetId, variant)
  if (hasDisputes(db, disputesKey(db, schema, datasetId, variant)) || pending.get(db)?.at === at) return
  const targets =
    (db.prepare('SELECT targets FROM dataset_counts WHERE dataset_id = ?').pluck().get(datasetId) as
      | number
      | undefined) ?? 0
  if (targets < fromTargets) return
  // Not holding the process open: a CLI asking for the figures alone exits without waiting.
  const { list, worker } = readInWorker(db.name, datasetId, variant)
  worker.unref()
  pending.set(db, { at, list, worker })
}

/**
 * Waits for a background read of the list the queue is about to ask for, and keeps its list if
 * the workspace is still as it was when the read started. Returns at once when none is running.
 */
export async function awaitDisputes(
  db: Db,
  schema: LabelSchema,
  datasetId: number,
  variant: string | null,
): Promise<void> {
  const p = pending.get(db)
  if (!p || p.at !== readKey(db, schema, datasetId, variant)) return
  p.worker.ref()
  const list = await p.list
  if (pending.get(db) === p) pending.delete(db)
  if (list && db.open && readKey(db, schema, datasetId, variant) === p.at)
    keepDisputes(db, disputesKey(db, schema, datasetId, variant), list)
}

function readInWorker(
  file: string,
  datasetId: number,
  variant: string | null,
): { list: Promise<DisputedTarget[] | null>; worker: Worker } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3')
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { file, driver, queries: disputeQueries(variant), params: { datasetId, variant } },
  })
  // A worker that fails leaves the queue to read on the app's thread, as without it.
  const list = workerAnswer(worker, (m: { ids: Float64Array; decided: Uint8Array } | { problem: string }) => {
    if (!('ids' in m)) return null
    const list = new Array<DisputedTarget>(m.ids.length)
    for (let i = 0; i < m.ids.length; i++) list[i] = { targetId: m.ids[i]!, decided: m.decided[i]! }
    return list
  })
  return { list, worker }
}
