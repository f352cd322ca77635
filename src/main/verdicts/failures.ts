import { countOf } from '../../shared/plural'
import type { Db } from '../store/connection'
import { verdictCounts } from './reads'
import { columnCounts, columnTargets, type VerdictColumn } from './stored'

/*
 * Why a run's calls failed, by class. A run whose every call failed has produced no evidence,
 * so it ends `failed` with the first failure's class and message; a run with some failures
 * lists their classes and counts beside its figures.
 */

export interface ErrorClassCount {
  name: string
  count: number
}

export interface RunFailures {
  ok: number
  na: number
  errors: number
  classes: ErrorClassCount[]
  first: { name: string; message: string } | null
}

/**
 * Whether the run holds any verdict or N/A: when it does, it did not fail as a whole and its
 * failures need not be classed. Stops at the first such row instead of counting them all, which
 * the run's summary does anyway right after.
 */
export function anyAnswer(db: Db, runId: number): boolean {
  return (
    db
      .prepare("SELECT EXISTS (SELECT 1 FROM verdicts WHERE run_id = ? AND status IN ('ok', 'na'))")
      .pluck()
      .get(runId) === 1
  )
}

/** A short class for a failure message: what a person would look into first. */
export function errorClass(message: string): string {
  if (/no reply within|timed? ?out|timeout/i.test(message)) return 'timeout'
  if (/\b429\b|rate.?limit/i.test(message)) return 'rate limit'
  if (/\b(401|403)\b|api key|unauthori[sz]ed|permission/i.test(message)) return 'authentication'
  if (/\b5\d\d\b|server error|overloaded/i.test(message)) return 'server error'
  if (/\b4\d\d\b|bad request|not found/i.test(message)) return 'request refused'
  if (/ECONN|socket|connection|network|fetch failed|reset/i.test(message)) return 'connection'
  if (/cannot make LLM calls|method failed|cannot run/i.test(message)) return 'method failure'
  return 'other'
}

/**
 * `column`: the run's verdict column when the caller has it (see verdictColumns): the counts and
 * the failed targets are then read off it, and only the failed verdicts' rows are looked up.
 */
export function runFailures(db: Db, runId: number, column?: VerdictColumn): RunFailures {
  const c = column ? columnCounts(column) : verdictCounts(db, runId)
  const counts = { ok: c.ok, na: c.na, errors: c.err }
  if (counts.errors === 0) return { ...counts, classes: [], first: null }
  const rows = db
    .prepare(
      `SELECT json_extract(v.detail, '$.problem') AS problem, rc.error AS callError
       FROM verdicts v LEFT JOIN run_calls rc ON rc.id = v.call_id
       WHERE v.run_id = ? AND v.status = 'error'
         ${column ? 'AND v.target_id IN (SELECT value FROM json_each(?))' : ''}
       ORDER BY v.id`,
    )
    .all(...(column ? [runId, JSON.stringify(columnTargets(column, 'error'))] : [runId])) as {
    problem: string | null
    callError: string | null
  }[]
  const byClass = new Map<string, number>()
  let first: RunFailures['first'] = null
  for (const r of rows) {
    const message = r.problem ?? r.callError ?? 'no message recorded'
    const name = errorClass(message)
    byClass.set(name, (byClass.get(name) ?? 0) + 1)
    first ??= { name, message }
  }
  const classes = [...byClass].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count)
  return { ...counts, classes, first }
}

/** The sentence a run that produced nothing but failures ends with, or null if it produced anything. */
export function allFailedReason(f: RunFailures): string | null {
  if (f.errors === 0 || f.ok + f.na > 0 || !f.first) return null
  const n = f.errors
  return `Every call failed (${countOf(n, 'target')}, no verdict). First error — ${f.first.name}: ${f.first.message}`
}
