import type { Disagreement, LabelNextRow } from '../../shared/contract/metrics'
import type { Db } from '../store/connection'
import { verdictLookup } from '../verdicts/reads'
import { disagreementHits, type Hit, labelNextPicks, reachedByAny, splitScore } from './judgeLists'
import { backgroundLists } from './keptLists'
import { runSpanColumns, ST_OK } from './load'
import { datasetSnapshot, memoised, runLabel, type Snapshot } from './snapshot'
import { NONE } from './stats/binary'

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
): { total: number; rows: Disagreement[]; hidden: number } {
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
): { total: number; rows: Disagreement[]; hidden: number } {
  const { t, runs: all, columns } = snapshot
  const variantCode = opts.variant == null ? -1 : t.variants.indexOf(opts.variant)
  if (opts.variant != null && variantCode < 0) return { total: 0, rows: [], hidden: 0 }
  // Listed by target, then by run id.
  const runs = all.filter((r) => opts.runId == null || r.id === opts.runId).sort((a, b) => a.id - b.id)
  const limit = opts.limit ?? 200
  const cols = runs.map((r) => runSpanColumns(columns.get(r.id)!))
  const reveals = opts.reveals
  let found: { total: number; shown: Hit[]; hidden: number }
  if (reveals) {
    // Target by target, runs in id order: hits come out in the order they are listed, so only the
    // shown ones are kept and the rest are just counted.
    // Those kept back are counted too, so the view can say the list is not empty but hidden.
    const shown: Hit[] = []
    let total = 0
    let hidden = 0
    const [lo, hi] = reachedByAny(cols, t.ids.length)
    for (let i = lo; i < hi; i++) {
      if (variantCode >= 0 && t.variant[i] !== variantCode) continue
      const gold = t.goldBin[i]!
      if (gold === NONE) continue
      const revealed = reveals(t.ids[i]!)
      for (let r = 0; r < cols.length; r++) {
        const { from, to, status, bin } = cols[r]!
        if (!(i >= from && i < to && status[i - from] === ST_OK && bin[i - from] !== gold)) continue
        if (!revealed) hidden++
        else if (total++ < limit) shown.push({ i, r })
      }
    }
    found = { total, shown, hidden }
  } else {
    // The whole list read on another thread (compareInBackground.ts) holds the first of it.
    const kept = opts.runId == null && opts.variant == null ? backgroundLists(snapshot) : null
    found =
      kept && limit <= kept.disagreements.limit
        ? { total: kept.disagreements.total, shown: kept.disagreements.shown.slice(0, limit), hidden: 0 }
        : { ...disagreementHits(t, cols, variantCode, limit), hidden: 0 }
  }
  const shown = found.shown.map((h) => ({ i: h.i, run: runs[h.r]! }))
  const total = found.total
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
  return { total, rows, hidden: found.hidden }
}

/**
 * Targets without gold, the ones where judges disagree with each other first: a human label
 * there moves the judges' error rates (and narrows their intervals) the most.
 */
export function labelNext(db: Db, datasetId: number, limit = 50): LabelNextRow[] {
  return memoised(db, datasetId, `labelNext:${limit}`, (s) => findLabelNext(db, s, limit))
}

function findLabelNext(db: Db, snapshot: Snapshot, limit: number): LabelNextRow[] {
  const { t, runs, columns } = snapshot
  const kept = backgroundLists(snapshot)
  const top =
    kept && limit <= kept.labelNext.limit
      ? kept.labelNext.picks.slice(0, limit)
      : labelNextPicks(
          t.goldBin,
          runs.map((r) => runSpanColumns(columns.get(r.id)!)),
          limit,
        )
  const info = targetInfo(
    db,
    top.map((p) => t.ids[p.i]!),
  )
  return top.map((p) => ({
    targetId: t.ids[p.i]!,
    ...info.get(t.ids[p.i]!)!,
    judges: p.votes,
    unsupportedShare: p.unsupported / p.votes,
    disagreement: splitScore(p.votes, p.unsupported),
  }))
}
