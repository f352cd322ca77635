import type { Db } from '../store/connection'
import type { TargetTally } from './targetColumns'

/**
 * The steps of a dataset export a person can tell apart: the rows of the data file (targets
 * written of the targets it will write), then the dataset card and the per-response figures
 * (0 of 1, then 1 of 1).
 */
export type ExportPhase = 'rows' | 'card'

/** How far a dataset export has got, in its phase. */
export type ExportProgress = (done: number, total: number, phase: ExportPhase) => void

/**
 * The targets the targets layout writes (current units only), counted before the first row so
 * progress has a fixed end. Answers without units add a row each but no target, so rows may
 * outnumber this; targets are what a person recognises as the size of the dataset.
 */
export function exportTargetTotal(db: Db, datasetId: number): number {
  return db
    .prepare(
      `SELECT COUNT(*) FROM targets t JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL`,
    )
    .pluck()
    .get(datasetId) as number
}

/**
 * The card's tally with a count on the side: every `step` targets (and at the last one) it says
 * how many are written. Counting here rather than in the writers keeps the row loops untouched.
 */
export function countingTally(
  inner: TargetTally,
  total: number,
  report: ExportProgress,
  step = 1000,
): TargetTally {
  let done = 0
  return {
    target(annotators, codes, verdicts, control) {
      inner.target(annotators, codes, verdicts, control)
      done++
      if (done % step === 0 || done === total) report(done, total, 'rows')
    },
  }
}

/**
 * Passes a report on at most once per `ms` (the first and the last of each phase always), so a
 * million-row export prints a few lines a second rather than a thousand.
 */
export function throttled(report: ExportProgress, ms: number, now: () => number = Date.now): ExportProgress {
  let last = Number.NEGATIVE_INFINITY
  let lastPhase: ExportPhase | null = null
  return (done, total, phase) => {
    const t = now()
    if (done < total && phase === lastPhase && t - last < ms) return
    last = t
    lastPhase = phase
    report(done, total, phase)
  }
}
