import type { NarrowingSeries } from '../../shared/contract/metrics'
import type { ListRun } from './judgeLists'
import { reachedByAny } from './judgeLists'
import type { TargetColumns } from './load'
import { runLabel } from './runLabel'
import { ST_OK } from './runStatus'
import type { RunRow } from './snapshot'
import { addPair, emptyCells, NONE } from './stats/binary'
import { errorRateCi } from './stats/bootstrap'
import { keysAtRanks } from './timeRanks'

/**
 * The narrowing chart's pure part (narrowing.ts reads what it needs): from each target's latest
 * label time, or from a plan, to each run's interval widths. No database and nothing that loads
 * the store or the schemas, so the lists' worker thread starts without them.
 */

/** The chart's checkpoints, as the Compare view draws it. */
export const NARROWING_POINTS = 10

/** The columns the chart reads of the targets and runs (a worker thread gets these alone). */
export type NarrowingTargets = Pick<TargetColumns, 'goldBin' | 'stored' | 'indexOf'>
/** A run's statuses and binary verdicts over the targets it reached. */
export type NarrowingRun = ListRun
export type NarrowingRunRow = Pick<
  RunRow,
  'id' | 'model' | 'method' | 'repeat_index' | 'mode' | 'answered_calls' | 'batch_calls'
>

/** The chart from each target's latest label time: no database, so it can be drawn on another thread. */
export function narrowingFromLatest(
  t: Pick<NarrowingTargets, 'goldBin' | 'stored'>,
  latest: Float64Array,
  runs: readonly NarrowingRunRow[],
  columns: ReadonlyMap<number, NarrowingRun>,
  points: number,
): NarrowingSeries[] {
  if (t.goldBin.length === 0) return []
  const plan = planFromLatest(t, latest, reachedSpan(runs, columns), points)
  return plan ? series(plan, t, runs, columns) : []
}

/**
 * The chart's checkpoints (places in the sequence) and the targets some run reached, grouped by
 * the first checkpoint they come before: `targets` from `end[k − 1]` to `end[k]` (from 0 when
 * k = 0) count from checkpoint k on.
 */
export interface Plan {
  checkpoints: number[]
  targets: Int32Array
  end: Int32Array
}

export function checkpointsOf(total: number, points: number): number[] {
  return [...new Set(Array.from({ length: points }, (_, k) => Math.ceil(((k + 1) * total) / points)))]
}

/** Groups targets by their group number (0 … groups − 1; −1: left out), keeping their order. */
export function grouped(
  target: Int32Array,
  group: Int32Array,
  groups: number,
): [targets: Int32Array, end: Int32Array] {
  const end = new Int32Array(groups)
  for (let p = 0; p < group.length; p++) if (group[p]! >= 0) end[group[p]!]!++
  for (let k = 1; k < groups; k++) end[k]! += end[k - 1]!
  const out = new Int32Array(groups === 0 ? 0 : end[groups - 1]!)
  const next = new Int32Array(groups)
  for (let k = 1; k < groups; k++) next[k] = end[k - 1]!
  for (let p = 0; p < group.length; p++) if (group[p]! >= 0) out[next[group[p]!]!++] = target[p]!
  return [out, end]
}

/** The plan from the targets' latest label times (the label blocks'), without ordering the sequence. */
function planFromLatest(
  t: Pick<NarrowingTargets, 'goldBin' | 'stored'>,
  latest: Float64Array,
  [lo, hi]: [number, number],
  points: number,
): Plan | null {
  const n = t.goldBin.length
  const { goldBin, stored } = t
  let storedCount = 0
  let labelled = 0
  for (let i = 0; i < n; i++) {
    if (stored[i]! >= 0 && goldBin[i] !== NONE) storedCount++
    else if (!Number.isNaN(latest[i]!)) labelled++
  }
  const total = storedCount + labelled
  if (total === 0) return null
  const checkpoints = checkpointsOf(total, points)
  const members = new Int32Array(labelled)
  for (let i = 0, m = 0; i < n; i++) if (!Number.isNaN(latest[i]!)) members[m++] = i
  // A labelled target comes before checkpoint k when fewer than `rank[k]` labelled targets precede
  // it: when it sorts before the one at that rank (stored gold takes the first places).
  const rank = checkpoints.map((c) => c - storedCount)
  const at = keysAtRanks(
    latest,
    members,
    rank.filter((r) => r > 0 && r < labelled),
  )
  // Per checkpoint, the key a labelled target must sort before to count there: none can
  // (−∞), every one does (+∞), or the key at its rank.
  const thresholdTime = Float64Array.from(rank, (r) =>
    r <= 0 ? Number.NEGATIVE_INFINITY : r >= labelled ? Number.POSITIVE_INFINITY : at.get(r)!.time,
  )
  const thresholdIndex = Int32Array.from(rank, (r) => (r <= 0 || r >= labelled ? 0 : at.get(r)!.index))
  const groups = checkpoints.length
  const reached = Math.max(0, Math.min(hi, n) - lo)
  const targets = new Int32Array(reached)
  const group = new Int32Array(reached).fill(-1)
  let place = 0
  for (let i = 0; i < n; i++)
    if (stored[i]! >= 0 && goldBin[i] !== NONE) {
      if (i >= lo && i < hi) {
        targets[i - lo] = i
        group[i - lo] = checkpoints.findIndex((c) => place < c)
      }
      place++
    }
  for (let i = lo; i < hi && i < n; i++) {
    const tm = latest[i]!
    if (Number.isNaN(tm)) continue
    targets[i - lo] = i
    // Thresholds only grow from one checkpoint to the next: the first one it sorts before.
    let k = 0
    while (k < groups && !(tm < thresholdTime[k]! || (tm === thresholdTime[k]! && i < thresholdIndex[k]!)))
      k++
    group[i - lo] = k < groups ? k : -1
  }
  const [sorted, end] = grouped(targets, group, checkpoints.length)
  return { checkpoints, targets: sorted, end }
}

/** The dense target indexes some run reached, [lo, hi) (lo ≥ hi when none did). */
export function reachedSpan(
  runs: readonly NarrowingRunRow[],
  columns: ReadonlyMap<number, NarrowingRun>,
): [number, number] {
  return reachedByAny(
    runs.map((r) => columns.get(r.id)!),
    Number.POSITIVE_INFINITY,
  )
}

/** Per run, its ER interval width after each checkpoint. */
export function series(
  { checkpoints, targets, end }: Plan,
  t: Pick<NarrowingTargets, 'goldBin'>,
  runs: readonly NarrowingRunRow[],
  columns: ReadonlyMap<number, NarrowingRun>,
): NarrowingSeries[] {
  const gold = t.goldBin
  return runs.map((r) => {
    const { from, to, status, bin } = columns.get(r.id)!
    const cells = emptyCells()
    const points: NarrowingSeries['points'] = []
    let p = 0
    // Each point counts the pairs of the targets before its checkpoint.
    for (const [k, checkpoint] of checkpoints.entries()) {
      for (; p < end[k]!; p++) {
        const i = targets[p]!
        if (i >= from && i < to && status[i - from] === ST_OK) addPair(cells, bin[i - from]!, gold[i]!)
      }
      const ci = errorRateCi(cells, { seed: 1, replicates: 300 })
      points.push({
        gold: checkpoint,
        n: cells.tp + cells.fp + cells.fn + cells.tn,
        width: ci ? ci[1] - ci[0] : null,
      })
    }
    return { runId: r.id, label: runLabel(r), points }
  })
}
