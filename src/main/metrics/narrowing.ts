import type { NarrowingSeries } from '../../shared/contract/metrics'
import { blockParts, type LabelRowsColumns } from '../labels/blocks'
import { labelledByTime } from '../labels/reads'
import type { Db } from '../store/connection'
import { backgroundLists } from './keptLists'
import { runSpanColumns } from './load'
import {
  checkpointsOf,
  grouped,
  NARROWING_POINTS,
  type NarrowingTargets,
  narrowingFromLatest,
  type Plan,
  reachedSpan,
  series,
} from './narrowingSeries'
import { memoised, type Snapshot } from './snapshot'
import { NONE } from './stats/binary'

export { NARROWING_POINTS } from './narrowingSeries'

/**
 * Each judge's ER interval width as gold accrued, replaying gold targets in the order their
 * latest label was saved: how much the labels so far have bought.
 *
 * The replayed sequence is the stored (imported or adjudicated) gold first, in target order,
 * which has no labelling time of its own and counts as known from the start, then the gold the
 * labels make in the order they were saved (by the time of a target's latest label, then by id).
 * A point of the chart only asks which targets come before its checkpoint, so the sequence is
 * never sorted: the target at each checkpoint's place is found by selection (timeRanks.ts), and
 * every target some run reached is put in the group of the first checkpoint it comes before.
 */
export function narrowing(db: Db, datasetId: number, points = NARROWING_POINTS): NarrowingSeries[] {
  return memoised(db, datasetId, `narrowing:${points}`, (s) => {
    const { t, runs, columns } = s
    const n = t.ids.length
    if (n === 0) return []
    const kept = points === NARROWING_POINTS ? backgroundLists(s)?.narrowing : null
    if (kept) return kept
    // The label pass's blocks carry each label's time: no second read of every label.
    const rows = labelTimes(s)
    const reached = new Map(runs.map((r) => [r.id, runSpanColumns(columns.get(r.id)!)]))
    if (rows) return narrowingFromLatest(t, latestLabelTimes(t, rows), runs, reached, points)
    const plan = planFromOrder(
      t,
      labelledByTime(db, t.ids[0]!, t.ids[n - 1]!),
      reachedSpan(runs, reached),
      points,
    )
    return plan ? series(plan, t, runs, reached) : []
  })
}

/** The label pass's labels when they carry times (the label blocks'), else null; nothing is copied out. */
export function labelTimes({ t }: Pick<Snapshot, 't'>): LabelRowsColumns | null {
  const pass = t.labelPass
  if (!pass || !('blocks' in pass)) return null
  const blocks = blockParts(pass.blocks)
  const times = blocks ? blocks.parts.every((p) => p.time !== null) : pass.blocks.time !== null
  return times ? pass.blocks : null
}

/**
 * Each target's latest label time where its gold comes from the labels (NaN: not such a target),
 * read straight from the label blocks when the labels came from them: no column of every
 * label's target and time is copied out first.
 */
export function latestLabelTimes(t: NarrowingTargets, rows: LabelRowsColumns): Float64Array<ArrayBuffer> {
  const { goldBin, stored, indexOf } = t
  const latest = new Float64Array(goldBin.length).fill(Number.NaN)
  const note = (id: number, tm: number) => {
    const i = id < indexOf.length ? indexOf[id]! : -1
    if (i < 0 || goldBin[i] === NONE || stored[i]! >= 0) return
    if (!(latest[i]! >= tm)) latest[i] = tm
  }
  const blocks = blockParts(rows)
  if (blocks) {
    const { lo, hi } = blocks
    const limit = indexOf.length
    // note() spelled out: a call per label (two million of them) costs more than the rest.
    for (const { base, n, whole, offset, time } of blocks.parts)
      for (let p = 0; p < n; p++) {
        const id = base + offset[p]!
        if ((!whole && (id < lo || id > hi)) || id >= limit) continue
        const i = indexOf[id]!
        if (i < 0 || goldBin[i] === NONE || stored[i]! >= 0) continue
        const tm = time![p]!
        if (!(latest[i]! >= tm)) latest[i] = tm
      }
    return latest
  }
  const { target } = rows
  const time = rows.time!
  for (let p = 0; p < target.length; p++) note(target[p]!, time[p]!)
  return latest
}

/** The plan from the labelled targets in time order (read by SQLite when the blocks carry no times). */
function planFromOrder(
  t: Snapshot['t'],
  byTime: readonly number[],
  [lo, hi]: [number, number],
  points: number,
): Plan | null {
  const n = t.ids.length
  const place: number[] = []
  const target: number[] = []
  let total = 0
  for (let i = 0; i < n; i++)
    if (t.stored[i]! >= 0 && t.goldBin[i] !== NONE) {
      if (i >= lo && i < hi) {
        place.push(total)
        target.push(i)
      }
      total++
    }
  const indexOf = t.indexOf
  for (const id of byTime) {
    const i = id < indexOf.length ? indexOf[id]! : -1
    if (i < 0 || t.goldBin[i] === NONE || t.stored[i]! >= 0) continue
    if (i >= lo && i < hi) {
      place.push(total)
      target.push(i)
    }
    total++
  }
  if (total === 0) return null
  const checkpoints = checkpointsOf(total, points)
  const group = Int32Array.from(place, (at) => checkpoints.findIndex((c) => at < c))
  const [sorted, end] = grouped(Int32Array.from(target), group, checkpoints.length)
  return { checkpoints, targets: sorted, end }
}
