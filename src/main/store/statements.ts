import type { Statement } from 'better-sqlite3'
import type { Db } from './connection'

const statements = new WeakMap<Db, Map<string, Statement>>()
const runners = new WeakMap<Db, <T>(fn: () => T) => T>()

/**
 * `db.transaction(fn)()` with the wrapper made once per connection: better-sqlite3 builds four
 * wrapper functions for every call of `transaction`, and a judge run commits hundreds of times a
 * second.
 */
function inTransaction<T>(db: Db, fn: () => T): T {
  let run = runners.get(db)
  if (!run) {
    const tx = db.transaction((f: () => unknown) => f())
    run = <U>(f: () => U) => tx(f) as U
    runners.set(db, run)
  }
  return run(fn)
}

/** Prepared once per connection: a run prepares the same few statements thousands of times. */
export function stmt(db: Db, sql: string): Statement {
  let byDb = statements.get(db)
  if (!byDb) {
    byDb = new Map()
    statements.set(db, byDb)
  }
  let s = byDb.get(sql)
  if (!s) {
    s = db.prepare(sql)
    byDb.set(sql, s)
  }
  return s
}

/**
 * Run bookkeeping commits without waiting for the disk (synchronous NORMAL). In WAL mode that
 * still survives a killed process, which is what resume relies on; only a power cut can lose the
 * last calls, and those are simply asked again. Label writes keep the connection's FULL setting:
 * better-sqlite3 is synchronous, so nothing else can run between the two pragma calls.
 */
export function relaxedWrite<T>(db: Db, fn: () => T): T {
  const previous = stmt(db, 'PRAGMA synchronous').pluck().get() as number
  if (previous <= 1) return inTransaction(db, fn)
  stmt(db, 'PRAGMA synchronous = NORMAL').run()
  try {
    return inTransaction(db, fn)
  } finally {
    stmt(db, `PRAGMA synchronous = ${Math.trunc(previous)}`).run()
  }
}

/**
 * Runs `fn` as one read transaction, so every query in it sees the workspace as of one moment:
 * an export counts its rows, writes them and describes them in its card, and another process
 * (a CLI judge run, a second window) committing in between must not make the parts disagree.
 * Inside a transaction already, it simply runs. Nothing is rolled back: an export writes nothing.
 */
export function oneSnapshot<T>(db: Db, fn: () => T): T {
  if (db.inTransaction) return fn()
  stmt(db, 'BEGIN').run()
  try {
    return fn()
  } finally {
    if (db.inTransaction) stmt(db, 'COMMIT').run()
  }
}
