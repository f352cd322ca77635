import type { VerdictOutcome } from '../judges/types'
import { labelDiffersFrom, labelled } from '../labels/sql'
import type { Db } from '../store/connection'
import { insertManyRows } from '../store/manyRows'
import { relaxedWrite, stmt } from '../store/statements'

export function writeVerdicts(
  db: Db,
  runId: number,
  outcomes: VerdictOutcome[],
  callId: number | null,
): void {
  writeVerdictsMany(db, runId, [{ outcomes, callId }])
}

/**
 * Several candidates' verdicts in one transaction (a batch run writes thousands at a time). The
 * run is named in `verdict_bulk_writes` meanwhile, so the insert triggers leave the run's verdict
 * column and the "judges disagree" table to this writer, which brings both up to date once for
 * every target written, in the same transaction (migration 0150): per row, the triggers cost more
 * than the insert.
 */
export function writeVerdictsMany(
  db: Db,
  runId: number,
  writes: readonly { outcomes: readonly VerdictOutcome[]; callId: number | null }[],
): void {
  if (writes.length === 0) return
  relaxedWrite(db, () => {
    // Already named by a caller's own bulk write: that one refreshes what this one writes too.
    const named = stmt(db, 'INSERT OR IGNORE INTO verdict_bulk_writes (run_id) VALUES (?)').run(runId).changes
    // Every row inserted below gets a larger id than any row now (ids are never given), except
    // that a replaced last row may hand its own id on: hence >=, refreshing one target too many
    // at worst.
    const from = stmt(db, 'SELECT COALESCE(MAX(id), 0) FROM verdicts').pluck().get() as number
    // A hundred rows per statement: per row, binding nine values in a statement of their own cost
    // about as much as SQLite's insert. A target written twice keeps its last verdict, as
    // row-by-row writes would.
    const rows = new Map<number, unknown[]>()
    for (const { outcomes, callId } of writes)
      for (const o of outcomes) {
        rows.delete(o.targetId)
        rows.set(o.targetId, [runId, ...verdictValues(o, callId)])
      }
    insertManyRows(db, INSERT_ROWS, [...rows.values()])
    if (named === 0) return
    stmt(db, 'DELETE FROM verdict_bulk_writes WHERE run_id = ?').run(runId)
    stmt(db, 'DELETE FROM verdict_columns WHERE run_id = ?').run(runId)
    stmt(db, REFRESH_DELETE).run(from, runId)
    stmt(db, REFRESH_INSERT).run(from, runId)
  })
}

const INSERT_ROWS = `INSERT OR REPLACE INTO verdicts (run_id, target_id, call_id, status, verdict, score, reason, citation, detail)
  VALUES`

/**
 * The targets a bulk write touched that a person gave a verdict: the run's rows from the id it
 * started at, read by the id range (`+run_id` keeps the planner off the run's index: through the
 * index, each bulk write went over every verdict the run already had, so a large pass wrote in
 * quadratic time). Only labelled targets can be in "judges disagree", before the write or after
 * it: every change to a label refreshes its target, and a target is listed only while a label of
 * it differs from a verdict. A batch pass writes mostly unlabelled targets, and checking every
 * verdict of each for a differing label was a quarter to a third of the write (CPU, 20,000 rows).
 */
const WRITTEN = `SELECT v.target_id FROM verdicts v WHERE v.id >= ? AND +v.run_id = ?
  AND ${labelled('v.target_id')}`

/** The trigger's refresh of "judges disagree" (migration 0100), for every written target at once. */
const REFRESH_DELETE = `DELETE FROM judge_disagreements WHERE target_id IN (${WRITTEN})`
const REFRESH_INSERT = `INSERT OR IGNORE INTO judge_disagreements (target_id, dataset_id, item_id)
  SELECT t.id, t.dataset_id, t.item_id FROM targets t WHERE t.id IN (${WRITTEN}) AND EXISTS (
    SELECT 1 FROM verdicts v JOIN runs r ON r.id = v.run_id
    WHERE v.target_id = t.id AND r.dataset_id = t.dataset_id AND v.status = 'ok'
      AND ${labelDiffersFrom('v.target_id', 'v.verdict')})`

/** One candidate's verdicts, inside a transaction the caller holds (see runs/tickWrites.ts). */
export function insertVerdicts(
  db: Db,
  runId: number,
  outcomes: readonly VerdictOutcome[],
  callId: number | null,
): void {
  const insert = stmt(
    db,
    `INSERT OR REPLACE INTO verdicts (run_id, target_id, call_id, status, verdict, score, reason, citation, detail)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  for (const o of outcomes) insert.run(runId, ...verdictValues(o, callId))
}

/** A verdict row's values after its run id, as both writers store them. */
function verdictValues(o: VerdictOutcome, callId: number | null): unknown[] {
  // The same text as stringifying a merged copy; the copy is only made when there is a problem.
  const detail = o.problem ? { ...(o.detail ?? {}), problem: o.problem } : (o.detail ?? {})
  return [
    o.targetId,
    o.callId ?? callId,
    o.status,
    o.status === 'ok' ? o.verdict : null,
    o.score ?? null,
    o.reason ?? null,
    o.citation ?? null,
    JSON.stringify(detail),
  ]
}

/** One imported verdict per target and run; a second one for the same target is refused by the table. */
export function importedVerdictWriter(
  db: Db,
  runId: number,
): (v: {
  targetId: number
  status: string
  verdict: string | null
  score: number | null
  reason: string | null
  citation: string | null
}) => void {
  const insert = db.prepare(
    'INSERT INTO verdicts (run_id, target_id, status, verdict, score, reason, citation) VALUES (?, ?, ?, ?, ?, ?, ?)',
  )
  return (v) => insert.run(runId, v.targetId, v.status, v.verdict, v.score, v.reason, v.citation)
}
