import type { JudgeVerdict } from '../../shared/contract/annotate'
import type { Db } from '../store/connection'
import { callResponse } from '../store/repos/batchReplies'
import { UNIT_NUMBERS_SQL } from '../units/numbering'

/** A judge's (or an imported run's) verdict on one target, with what names the judge. */
export interface TargetJudgeVerdict {
  targetId: number
  runId: number
  status: JudgeVerdict['status']
  verdict: string | null
  reason: string | null
  citation: string | null
  judgeName: string | null
  provider: string
  model: string
  method: string
}

/** Every judge and imported run's verdict on these targets, oldest run first (the annotate view). */
export function judgeVerdictsOfTargets(db: Db, targetIds: readonly number[]): TargetJudgeVerdict[] {
  return db
    .prepare(
      `SELECT v.target_id AS targetId, v.run_id AS runId, v.status, v.verdict, v.reason, v.citation,
         jc.name AS judgeName, r.provider, r.model, r.method
       FROM verdicts v JOIN runs r ON r.id = v.run_id LEFT JOIN judge_configs jc ON jc.id = r.judge_config_id
       WHERE v.target_id IN (SELECT value FROM json_each(?)) AND r.kind IN ('judge', 'imported')
       ORDER BY r.id`,
    )
    .all(JSON.stringify(targetIds)) as TargetJudgeVerdict[]
}

/** A sentence unit's verdict in a run, with its candidate and item (RAI rewrites the candidate). */
export interface SentenceVerdict {
  candidate_id: number
  variant: string
  candidate_text: string
  item_id: number
  question: string | null
  reference: string
  text: string
  status: string
  verdict: string | null
  reason: string | null
}

/** Sentence verdicts of one run, of the given candidates or all, in candidate and sentence order. */
export function sentenceVerdictsOfRun(
  db: Db,
  runId: number,
  candidateIds: number[] | null,
): SentenceVerdict[] {
  const filter = candidateIds ? `AND c.id IN (${candidateIds.map(() => '?').join(', ') || 'NULL'})` : ''
  return db
    .prepare(
      `SELECT c.id AS candidate_id, c.variant, c.text AS candidate_text, i.id AS item_id, i.question, i.reference,
         u.text, v.status, v.verdict, v.reason
       FROM verdicts v JOIN targets t ON t.id = v.target_id JOIN units u ON u.id = t.unit_id
       JOIN candidates c ON c.id = t.candidate_id JOIN items i ON i.id = t.item_id
       WHERE v.run_id = ? AND u.kind = 'sentence' ${filter}
       ORDER BY c.id, u.position`,
    )
    .all(runId, ...(candidateIds ?? [])) as SentenceVerdict[]
}

/** Status and verdict of each sentence of one candidate in one run. */
export function sentenceVerdictsOfCandidate(
  db: Db,
  runId: number,
  candidateId: number,
): { status: string; verdict: string | null }[] {
  return db
    .prepare(
      `SELECT v.status, v.verdict FROM verdicts v JOIN targets t ON t.id = v.target_id JOIN units u ON u.id = t.unit_id
       WHERE v.run_id = ? AND t.candidate_id = ? AND u.kind = 'sentence'`,
    )
    .all(runId, candidateId) as { status: string; verdict: string | null }[]
}

/** Every run's verdict on the targets of one candidate, newest run first; `detail` is raw JSON. */
export function verdictsOnCandidate(db: Db, candidateId: number) {
  return db
    .prepare(
      `SELECT v.run_id, r.method, r.model, v.target_id, t.unit_id, v.status, v.verdict, v.score, v.reason,
         v.citation, v.detail
       FROM verdicts v JOIN targets t ON t.id = v.target_id JOIN runs r ON r.id = v.run_id
       WHERE t.candidate_id = ? ORDER BY v.run_id DESC, t.unit_id`,
    )
    .all(candidateId) as {
    run_id: number
    method: string
    model: string
    target_id: number
    unit_id: number
    status: 'ok' | 'na' | 'error'
    verdict: string | null
    score: number | null
    reason: string | null
    citation: string | null
    detail: string
  }[]
}

/** One verdict of a run as the verdicts export writes it, with the bookkeeping of its call. */
export interface VerdictExportRow {
  item_id: string
  variant: string
  /** The unit's number as `units list` shows it (units/numbering.ts); null once edited or deleted. */
  unit: number | null
  unit_kind: string
  unit_text: string
  status: string
  verdict: string | null
  score: number | null
  reason: string | null
  citation: string | null
  /** The run's key of the call that answered this verdict (the same in batch and sync mode). */
  call_key: string | null
  /**
   * The call's response-cache key: equal hashes are the same request to the same model (in a
   * batch or call by call), so rows of two runs can be matched request for request.
   */
  request_hash: string | null
  /** The call's row id: one call answers several verdicts (a FaaF call judges every fact). */
  call_id: number | null
  call_status: string | null
  /** 1 when the call was answered from the response cache (no tokens spent by this run). */
  call_cached: number | null
  attempts: number | null
  latency_ms: number | null
  prompt_tokens: number | null
  completion_tokens: number | null
  request: string | null
  response: string | null
}

/**
 * A run's verdicts in reading order; the raw request and response only when asked for. A call
 * answered through a batch keeps its request record in the batch request it went out as
 * (migration 0130) and its reply in its batch's chunk of replies (migration 0150).
 */
export function* verdictExportRows(db: Db, runId: number, raw: boolean): IterableIterator<VerdictExportRow> {
  const datasetId = db.prepare('SELECT dataset_id FROM runs WHERE id = ?').pluck().get(runId) as number
  const stmt = db.prepare(
    `WITH numbered AS (${UNIT_NUMBERS_SQL})
     SELECT i.ext_id AS item_id, c.variant, n.number AS unit, u.kind AS unit_kind, u.text AS unit_text, v.status, v.verdict,
       v.score, v.reason, v.citation, rc.call_key, rc.request_hash, rc.id AS call_id, rc.status AS call_status,
       rc.cached AS call_cached, rc.attempts, rc.latency_ms, rc.prompt_tokens,
       rc.completion_tokens, ${raw ? 'COALESCE(rc.request, br.record) AS request, rc.response, rc.reply_chunk, rc.reply_line' : 'NULL AS request, NULL AS response, NULL AS reply_chunk, NULL AS reply_line'}
     FROM verdicts v JOIN targets t ON t.id = v.target_id JOIN items i ON i.id = t.item_id
     JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
     LEFT JOIN run_calls rc ON rc.id = v.call_id LEFT JOIN numbered n ON n.unit_id = u.id
     LEFT JOIN run_batch_request_records br ON br.request_id = rc.batch_request_id
     WHERE v.run_id = ? ORDER BY i.position, c.id, u.kind, u.position, u.id`,
  )
  for (const row of stmt.iterate(datasetId, runId) as IterableIterator<
    VerdictExportRow & { reply_chunk: number | null; reply_line: number | null }
  >) {
    const { reply_chunk, reply_line, ...out } = row
    if (raw) out.response = callResponse(db, row)
    yield out
  }
}

/** Looks up one run's verdict (and explicit score) on one target; the statement is prepared once. */
export function verdictLookup(
  db: Db,
): (runId: number, targetId: number) => { verdict: string | null; score: number | null } {
  const stmt = db.prepare('SELECT verdict, score FROM verdicts WHERE run_id = ? AND target_id = ?')
  return (runId, targetId) => stmt.get(runId, targetId) as { verdict: string | null; score: number | null }
}

/** Targets of this run that already hold a verdict or N/A (transport errors are worth retrying). */
export function settledTargets(db: Db, runId: number): Set<number> {
  const rows = db
    .prepare("SELECT target_id FROM verdicts WHERE run_id = ? AND status != 'error'")
    .all(runId) as { target_id: number }[]
  return new Set(rows.map((r) => r.target_id))
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
