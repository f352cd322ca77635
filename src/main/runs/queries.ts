import type { CandidateVerdict, Rewrite, RunInfo } from '../../shared/contract/runs'
import type { Db } from '../store/connection'
import { stmt } from '../store/statements'
import { runFailures } from '../verdicts/failures'
import { verdictsOnCandidate } from '../verdicts/reads'
import { verdictColumns } from '../verdicts/stored'
import { type CallSums, callSums, runCostSplit, runMoneyOf } from './cost'
import { lastTakeover, liveLease } from './lease'
import { heldMessage, standingTakeover } from './leaseRules'
import { listRuns, type RunRecord } from './repo'

/**
 * A finished run's call sums, per connection. Its calls change only while it runs again, which
 * moves its status and finish time, or when a call is added, which moves its largest call id
 * (read from the run's index: a tenth of the sums' cost at 50k calls).
 */
const finishedSums = new WeakMap<Db, Map<number, { key: string; sums: CallSums }>>()
const FINISHED: ReadonlySet<string> = new Set(['done', 'failed', 'cancelled'])

function sumsOf(db: Db, run: RunRecord, active: boolean): CallSums {
  if (active || !FINISHED.has(run.status)) return callSums(db, run.id)
  const last = stmt(db, 'SELECT MAX(id) FROM run_calls WHERE run_id = ?').pluck().get(run.id)
  const key = `${run.status}|${run.finishedAt}|${String(last)}`
  let byRun = finishedSums.get(db)
  if (!byRun) {
    byRun = new Map()
    finishedSums.set(db, byRun)
  }
  const hit = byRun.get(run.id)
  if (hit?.key === key) return hit.sums
  const sums = callSums(db, run.id)
  byRun.set(run.id, { key, sums })
  return sums
}

/** Runs with their counts, newest first, for the Judges view. */
export function runInfos(
  db: Db,
  datasetId: number | undefined,
  isActive: (id: number) => boolean,
): RunInfo[] {
  const now = new Date()
  const runs = listRuns(db, datasetId)
  // The view reloads this list every two seconds. A run no driver is writing to is counted from
  // its verdict column (one row, built on the first reload as the Compare view builds it): row by
  // row, twenty runs at a million targets took over a second each time.
  const columns = verdictColumns(
    db,
    runs.filter((r) => r.status !== 'running' && !isActive(r.id)).map((r) => r.id),
  )
  return runs.map((r) => {
    const active = isActive(r.id)
    // runSummary's figures from what is read here: the list shows no middle latency (a sort of
    // the run's calls, as long as the sums at 50k calls), and the run's config is parsed already.
    const failures = runFailures(db, r.id, columns.get(r.id))
    const sums = sumsOf(db, r, active)
    const lease = active ? null : liveLease(db, r.id, now.getTime())
    const total = stmt(db, 'SELECT total_calls FROM runs WHERE id = ?').pluck().get(r.id) as number
    // Priced now, not kept with the sums: a price entered later moves an unpriced run's cost.
    const money = runMoneyOf(db, r.config, sums)
    return {
      id: r.id,
      kind: r.kind,
      datasetId: r.datasetId,
      provider: r.provider,
      model: r.model,
      method: r.method,
      repeatIndex: r.repeatIndex,
      status: r.status,
      active,
      error: r.error,
      createdAt: r.createdAt,
      total,
      totalCalls: r.totalCalls,
      calls: sums.calls,
      cached: sums.cached,
      callErrors: sums.callErrors,
      verdicts: failures.ok,
      na: failures.na,
      errors: failures.errors,
      errorClasses: failures.classes,
      promptTokens: sums.pt,
      completionTokens: sums.ct,
      cacheReadTokens: sums.crt,
      cacheWriteTokens: sums.cwt,
      costSplit: runCostSplit(db, r.config, sums),
      cost: money.cost,
      costBasis: money.basis,
      mode: r.config.mode,
      batchCalls: sums.bcalls,
      templates: Object.fromEntries(Object.entries(r.config.templates).map(([n, t]) => [n, t.version])),
      heldBy: lease && {
        driver: lease.driver,
        pid: lease.pid,
        host: lease.host,
        since: lease.acquiredAt,
        message: heldMessage(lease, now),
      },
      takeover: standingTakeover(r.status, lastTakeover(db, r.id)),
    }
  })
}

/** RAI rewrites (candidates with a parent) beside the candidate they rewrote. */
export function rewrites(db: Db, datasetId: number): Rewrite[] {
  const rows = db
    .prepare(
      `SELECT i.id AS item_id, i.ext_id, p.id AS p_id, p.variant AS p_variant, p.text AS p_text,
         c.id AS c_id, c.variant AS c_variant, c.text AS c_text
       FROM candidates c JOIN candidates p ON p.id = c.parent_candidate_id JOIN items i ON i.id = c.item_id
       WHERE i.dataset_id = ? ORDER BY i.position, c.id`,
    )
    .all(datasetId) as {
    item_id: number
    ext_id: string
    p_id: number
    p_variant: string
    p_text: string
    c_id: number
    c_variant: string
    c_text: string
  }[]
  return rows.map((r) => ({
    itemId: r.item_id,
    extId: r.ext_id,
    original: { candidateId: r.p_id, variant: r.p_variant, text: r.p_text },
    rewrite: { candidateId: r.c_id, variant: r.c_variant, text: r.c_text },
  }))
}

/** Every judge verdict on the targets of one candidate (the Annotate view decides what to show). */
export function candidateVerdicts(db: Db, candidateId: number): CandidateVerdict[] {
  const rows = verdictsOnCandidate(db, candidateId)
  return rows.map((r) => {
    let problem: string | null = null
    try {
      const d = JSON.parse(r.detail) as { problem?: unknown }
      problem = typeof d.problem === 'string' ? d.problem : null
    } catch {
      problem = null
    }
    return {
      runId: r.run_id,
      method: r.method,
      model: r.model,
      targetId: r.target_id,
      unitId: r.unit_id,
      status: r.status,
      verdict: r.verdict,
      score: r.score,
      reason: r.reason,
      citation: r.citation,
      problem,
    }
  })
}
