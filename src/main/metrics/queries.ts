import type { Disagreement, LabelNextRow } from '../../shared/contract/metrics'
import type { Db } from '../store/connection'
import { verdictLookup } from '../verdicts/reads'
import { runSpan, ST_OK } from './load'
import { datasetSnapshot, memoised, runLabel, type Snapshot } from './snapshot'
import { NONE, UNSUPPORTED } from './stats/binary'

interface TargetInfo {
  itemId: number
  extId: string
  variant: string
  unitText: string
}

function targetInfo(db: Db, ids: readonly number[]): Map<number, TargetInfo> {
  const stmt = db.prepare(
    `SELECT t.id, t.item_id AS itemId, i.ext_id AS extId, c.variant, u.text AS unitText FROM targets t
     JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
     WHERE t.id = ?`,
  )
  const out = new Map<number, TargetInfo>()
  for (const id of ids) {
    const row = stmt.get(id) as (TargetInfo & { id: number }) | undefined
    if (row) out.set(id, row)
  }
  return out
}

/** Targets where a judge's verdict and gold disagree on the binary outcome, target by target. */
export function disagreements(
  db: Db,
  datasetId: number,
  opts: {
    runId?: number | null
    variant?: string | null
    limit?: number
    /** Blind mode's gate (src/main/blind/): targets it keeps back are neither listed nor counted. */
    reveals?: (targetId: number) => boolean
  } = {},
): { total: number; rows: Disagreement[] } {
  // A blind viewer's list is theirs alone: never kept for, or served from, the shared memo.
  if (opts.reveals) return findDisagreements(db, datasetSnapshot(db, datasetId), opts)
  // Reopening the Compare view of an unchanged workspace does not walk every verdict again.
  const key = `disagreements:${opts.runId ?? ''}:${opts.variant ?? ''}:${opts.limit ?? 200}`
  return memoised(db, datasetId, key, (s) => findDisagreements(db, s, opts))
}

function findDisagreements(
  db: Db,
  snapshot: Snapshot,
  opts: {
    runId?: number | null
    variant?: string | null
    limit?: number
    reveals?: (targetId: number) => boolean
  },
): { total: number; rows: Disagreement[] } {
  const { t, runs: all, columns } = snapshot
  const variantCode = opts.variant == null ? -1 : t.variants.indexOf(opts.variant)
  if (opts.variant != null && variantCode < 0) return { total: 0, rows: [] }
  // Listed by target, then by run id.
  const runs = all.filter((r) => opts.runId == null || r.id === opts.runId).sort((a, b) => a.id - b.id)
  const limit = opts.limit ?? 200
  const cols = runs.map((r) => columns.get(r.id)!)
  // Target by target, runs in id order: hits come out in the order they are listed, so only the
  // shown ones are kept and the rest are just counted.
  const shown: { i: number; run: (typeof runs)[number] }[] = []
  let total = 0
  // Only targets some run reached can disagree.
  let lo = t.ids.length
  let hi = 0
  for (const run of cols) {
    const [from, to] = runSpan(run)
    if (from < to) {
      lo = Math.min(lo, from)
      hi = Math.max(hi, to)
    }
  }
  const disagrees = (run: (typeof cols)[number], i: number) => {
    const gold = t.goldBin[i]!
    return gold !== NONE && run.status[i] === ST_OK && run.bin[i] !== gold
  }
  const reveals = opts.reveals
  if (reveals) {
    for (let i = lo; i < hi; i++) {
      if (variantCode >= 0 && t.variant[i] !== variantCode) continue
      if (t.goldBin[i] === NONE || !reveals(t.ids[i]!)) continue
      for (let r = 0; r < cols.length; r++)
        if (disagrees(cols[r]!, i) && total++ < limit) shown.push({ i, run: runs[r]! })
    }
  } else {
    // Counted run by run (each pass reads its own columns in order), then only as many targets
    // as the shown hits need are walked in the listed order.
    const { goldBin, variant } = t
    for (const run of cols) {
      const [from, to] = runSpan(run)
      const { status, bin } = run
      for (let i = from; i < to; i++) {
        const gold = goldBin[i]!
        if (
          gold !== NONE &&
          status[i] === ST_OK &&
          bin[i] !== gold &&
          (variantCode < 0 || variant[i] === variantCode)
        )
          total++
      }
    }
    for (let i = lo; i < hi && shown.length < limit; i++) {
      if (variantCode >= 0 && variant[i] !== variantCode) continue
      for (let r = 0; r < cols.length && shown.length < limit; r++)
        if (disagrees(cols[r]!, i)) shown.push({ i, run: runs[r]! })
    }
  }
  const verdictOf = verdictLookup(db)
  const info = targetInfo(
    db,
    shown.map((h) => t.ids[h.i]!),
  )
  const goldOf = new Map<number, string>()
  for (const h of shown) {
    const id = t.ids[h.i]!
    if (!goldOf.has(id)) {
      const code = t.goldCode[h.i]!
      goldOf.set(id, code >= 0 ? t.labels[code]! : String(t.goldNum[h.i]))
    }
  }
  const rows = shown.map((h): Disagreement => {
    const id = t.ids[h.i]!
    const v = verdictOf(h.run.id, id)
    return {
      targetId: id,
      ...info.get(id)!,
      gold: goldOf.get(id)!,
      runId: h.run.id,
      judge: runLabel(h.run),
      verdict: v.verdict ?? String(v.score),
    }
  })
  return { total, rows }
}

/**
 * Targets without gold, the ones where judges disagree with each other first: a human label
 * there moves the judges' error rates (and narrows their intervals) the most.
 */
export function labelNext(db: Db, datasetId: number, limit = 50): LabelNextRow[] {
  return memoised(db, datasetId, `labelNext:${limit}`, (s) => findLabelNext(db, s, limit))
}

function findLabelNext(db: Db, { t, runs, columns }: Snapshot, limit: number): LabelNextRow[] {
  const votes = new Uint16Array(t.ids.length)
  const unsupported = new Uint16Array(t.ids.length)
  // Only targets some run reached have votes.
  let lo = t.ids.length
  let hi = 0
  for (const r of runs) {
    const run = columns.get(r.id)!
    const [from, to] = runSpan(run)
    if (from < to) {
      lo = Math.min(lo, from)
      hi = Math.max(hi, to)
    }
    for (let i = from; i < to; i++) {
      if (run.status[i] !== ST_OK) continue
      votes[i]!++
      if (run.bin[i] === UNSUPPORTED) unsupported[i]!++
    }
  }
  const score = (i: number) => {
    const p = unsupported[i]! / votes[i]!
    return 4 * p * (1 - p)
  }
  // Most disagreement first, then more judges, then target order: a total order, so the first
  // `limit` of it are the same whether everything is sorted or only they are kept.
  const order = (a: number, b: number) => score(b) - score(a) || votes[b]! - votes[a]! || a - b
  const top: number[] = []
  for (let i = lo; i < hi; i++) {
    if (t.goldBin[i] !== NONE || votes[i] === 0) continue
    if (top.length === limit && order(i, top[limit - 1]!) > 0) continue
    let a = 0
    let b = top.length
    while (a < b) {
      const mid = (a + b) >>> 1
      if (order(top[mid]!, i) < 0) a = mid + 1
      else b = mid
    }
    top.splice(a, 0, i)
    if (top.length > limit) top.pop()
  }
  const info = targetInfo(
    db,
    top.map((i) => t.ids[i]!),
  )
  return top.map((i) => ({
    targetId: t.ids[i]!,
    ...info.get(t.ids[i]!)!,
    judges: votes[i]!,
    unsupportedShare: unsupported[i]! / votes[i]!,
    disagreement: score(i),
  }))
}
