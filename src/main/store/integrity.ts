import { statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import Database from 'better-sqlite3'

/**
 * SQLite's quick_check of a workspace file, run in a worker thread on a read-only connection of
 * its own, so a large workspace opens at once and is checked while the person starts working.
 * The worker is given as source text (no separate file to bundle) and loads better-sqlite3 by
 * the path this module resolves, which holds in the app's bundle, the CLI and the tests alike.
 */
export type IntegrityResult = { ok: true } | { ok: false; problem: string }

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
// The lowest CPU priority for this thread alone: on a machine of two cores, a check at full speed
// takes one while the window is still being drawn. Linux names threads under /proc; elsewhere
// the check keeps its priority.
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop())
  if (Number.isInteger(tid) && tid > 0) require('node:os').setPriority(tid, 19)
} catch {}
let db
try {
  db = new Database(workerData.file, { readonly: true, fileMustExist: true })
  db.pragma('busy_timeout = 5000')
  const result = db.pragma('quick_check', { simple: true })
  parentPort.postMessage(result === 'ok' ? { ok: true } : { ok: false, problem: String(result) })
} catch (error) {
  parentPort.postMessage({ ok: false, problem: error instanceof Error ? error.message : String(error) })
} finally {
  if (db) db.close()
}
`

/** The same check on this thread: what a check the worker could not run falls back to. */
function quickCheckHere(file: string): IntegrityResult {
  let db: Database.Database | null = null
  try {
    db = new Database(file, { readonly: true, fileMustExist: true })
    db.pragma('busy_timeout = 5000')
    const result = db.pragma('quick_check', { simple: true })
    return result === 'ok' ? { ok: true } : { ok: false, problem: String(result) }
  } catch (error) {
    return { ok: false, problem: error instanceof Error ? error.message : String(error) }
  } finally {
    db?.close()
  }
}

/**
 * `driver` is where the worker loads better-sqlite3 from (this module's own by default). A worker
 * that cannot start or stops without an answer says nothing about the file, so the check then
 * runs on this thread instead: a false alarm would turn a sound workspace read-only.
 */
export function quickCheckInBackground(
  file: string,
  driver = createRequire(import.meta.url).resolve('better-sqlite3'),
): Promise<IntegrityResult> {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { file, driver } })
    let settled = false
    const settle = (r: () => IntegrityResult) => {
      if (settled) return
      settled = true
      resolve(r())
    }
    worker.once('message', (m: IntegrityResult) => settle(() => m))
    worker.once('error', () => settle(() => quickCheckHere(file)))
    worker.once('exit', () => settle(() => quickCheckHere(file)))
  })
}

/** Whether the workspace (its file and write-ahead log) is larger than `bytes`. */
export function isLarger(file: string, bytes: number): boolean {
  if (file === ':memory:') return false
  const size = (f: string) => {
    try {
      return statSync(f).size
    } catch {
      return 0
    }
  }
  return size(file) + size(`${file}-wal`) > bytes
}
