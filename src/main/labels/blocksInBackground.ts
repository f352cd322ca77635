import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { Db } from '../store/connection'
import { dataVersion } from '../store/version'
import type { StoredBlock, StoredExtra } from './blocks'

/**
 * A dataset's stored label blocks read on the second core while the app's thread reads its
 * targets, for a cold view of a large dataset (metrics/snapshotInBackground.ts): a worker thread
 * with a read-only connection of its own (WAL lets it read beside the app's connection) reads the
 * blocks and hands their bytes over without copying them. At a million targets that is 47 MB,
 * and on a virtual machine most of the read's time goes to the page faults of memory touched for
 * the first time, which the worker's thread then takes.
 *
 * As disputesInBackground.ts does, the blocks are used only if the workspace's data did not change
 * from before the worker started to after its answer came back (`dataVersion`, which the blocks
 * the app's thread stores meanwhile do not move): the read lay between, so it saw what the app's
 * connection sees. A failed worker or a change means no answer, and the blocks are read on the
 * app's thread as before; blocks the read did not find (dropped by saves since they were built)
 * are read or built there (`readLabelBlocks`).
 */

// Given as source text, as store/integrity.ts does: no separate file to bundle.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
// Each blob comes in a buffer of its own: moved to the app's thread, not copied.
const own = (rows) =>
  rows
    .map((r) => r[2])
    .filter((b) => b.byteOffset === 0 && b.byteLength === b.buffer.byteLength)
    .map((b) => b.buffer)
let db
try {
  db = new Database(workerData.file, { readonly: true, fileMustExist: true })
  db.pragma('busy_timeout = 5000')
  // One read transaction: the extras are those of the blocks read.
  db.exec('BEGIN')
  const rows = db
    .prepare('SELECT block, dict, data FROM label_blocks WHERE block BETWEEN ? AND ? ORDER BY block')
    .raw()
    .all(workerData.first, workerData.last)
  parentPort.postMessage({ rows }, own(rows))
  if (workerData.extras) {
    const extras = db
      .prepare('SELECT block, stamp, data FROM label_block_extras WHERE block BETWEEN ? AND ?')
      .raw()
      .all(workerData.first, workerData.last)
    parentPort.postMessage({ extras }, own(extras))
  }
  db.exec('COMMIT')
} catch (error) {
  parentPort.postMessage({ problem: error instanceof Error ? error.message : String(error) })
} finally {
  if (db) db.close()
}
`

export interface BlocksRead {
  /** The workspace's data version before the read began. */
  at: string
  /** Blocks first … last as stored, in block order; null when the worker had no answer. */
  rows: Promise<StoredBlock[] | null>
  /** Their extras, read after them in the same transaction, when asked for (null: not asked, or no answer). */
  extras: Promise<StoredExtra[] | null>
}

/**
 * Starts reading blocks first … last on a worker thread (null: the workspace has no file to
 * open), and their extras after them when `extras` is set: the blocks are handed over first, so
 * this thread can work on them while the worker reads the extras.
 */
export function readBlocksInBackground(
  db: Db,
  first: number,
  last: number,
  extras = false,
  driver = createRequire(import.meta.url).resolve('better-sqlite3'),
): BlocksRead | null {
  // Inside a transaction the app's connection may hold writes no other connection can see yet.
  if (db.memory || !db.open || db.inTransaction) return null
  const at = dataVersion(db)
  let worker: Worker
  try {
    worker = new Worker(WORKER, { eval: true, workerData: { file: db.name, driver, first, last, extras } })
  } catch {
    return null
  }
  const answers = twoAnswers(worker)
  return { at, rows: answers.rows, extras: extras ? answers.extras : Promise.resolve(null) }
}

type Message = { rows: StoredBlock[] } | { extras: StoredExtra[] } | { problem: string }

/**
 * The worker's two messages, listened for from the start (both may arrive in one turn); a worker
 * that fails or exits first answers null to whatever has not come, as workerAnswer.ts does.
 */
function twoAnswers(worker: Worker): {
  rows: Promise<StoredBlock[] | null>
  extras: Promise<StoredExtra[] | null>
} {
  let rows!: (r: StoredBlock[] | null) => void
  let extras!: (r: StoredExtra[] | null) => void
  const out = {
    rows: new Promise<StoredBlock[] | null>((resolve) => {
      rows = resolve
    }),
    extras: new Promise<StoredExtra[] | null>((resolve) => {
      extras = resolve
    }),
  }
  worker.on('message', (m: Message) => {
    if ('rows' in m) rows(m.rows)
    else if ('extras' in m) extras(m.extras)
    else {
      rows(null)
      extras(null)
    }
  })
  const none = () => {
    rows(null)
    extras(null)
  }
  worker.once('error', none)
  worker.once('exit', none)
  return out
}

/** The blocks read, if the workspace is as it was when the read began. */
export async function blocksRead(db: Db, read: BlocksRead): Promise<StoredBlock[] | null> {
  const rows = await read.rows
  return rows && db.open && dataVersion(db) === read.at ? rows : null
}
