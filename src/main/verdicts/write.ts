import type { VerdictOutcome } from '../judges/types'
import type { Db } from '../store/connection'
import { relaxedWrite, stmt } from '../store/statements'

export function writeVerdicts(
  db: Db,
  runId: number,
  outcomes: VerdictOutcome[],
  callId: number | null,
): void {
  writeVerdictsMany(db, runId, [{ outcomes, callId }])
}

/** Several candidates' verdicts in one transaction (a batch run writes thousands at a time). */
export function writeVerdictsMany(
  db: Db,
  runId: number,
  writes: readonly { outcomes: readonly VerdictOutcome[]; callId: number | null }[],
): void {
  relaxedWrite(db, () => {
    for (const { outcomes, callId } of writes) insertVerdicts(db, runId, outcomes, callId)
  })
}

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
  for (const o of outcomes) {
    // The same text as stringifying a merged copy; the copy is only made when there is a problem.
    const detail = o.problem ? { ...(o.detail ?? {}), problem: o.problem } : (o.detail ?? {})
    insert.run(
      runId,
      o.targetId,
      callId,
      o.status,
      o.status === 'ok' ? o.verdict : null,
      o.score ?? null,
      o.reason ?? null,
      o.citation ?? null,
      JSON.stringify(detail),
    )
  }
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
