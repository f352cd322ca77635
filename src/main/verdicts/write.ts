import type { VerdictOutcome } from '../judges/types'
import type { Db } from '../store/connection'
import { relaxedWrite, stmt } from '../store/statements'

/** Targets of this run that already hold a verdict or N/A (transport errors are worth retrying). */
export function settledTargets(db: Db, runId: number): Set<number> {
  const rows = db
    .prepare("SELECT target_id FROM verdicts WHERE run_id = ? AND status != 'error'")
    .all(runId) as { target_id: number }[]
  return new Set(rows.map((r) => r.target_id))
}

export function writeVerdicts(
  db: Db,
  runId: number,
  outcomes: VerdictOutcome[],
  callId: number | null,
): void {
  const insert = stmt(
    db,
    `INSERT OR REPLACE INTO verdicts (run_id, target_id, call_id, status, verdict, score, reason, citation, detail)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  relaxedWrite(db, () => {
    for (const o of outcomes) {
      const detail = { ...(o.detail ?? {}), ...(o.problem ? { problem: o.problem } : {}) }
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
  })
}

/** How many of a run's targets got a verdict, N/A, or an error. */
export function verdictCounts(db: Db, runId: number): { ok: number; na: number; err: number } {
  return db
    .prepare(
      `SELECT COALESCE(SUM(status = 'ok'), 0) AS ok, COALESCE(SUM(status = 'na'), 0) AS na,
         COALESCE(SUM(status = 'error'), 0) AS err FROM verdicts WHERE run_id = ?`,
    )
    .get(runId) as { ok: number; na: number; err: number }
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
