import { countOf } from '../../shared/plural'
import { mulberry32 } from '../metrics/stats/bootstrap'

/**
 * How many known answers become controls when the lead takes them from gold. Controls are a
 * sample to check people with, not the work itself: by default a tenth of the dataset's targets.
 * Pure: no I/O.
 */
export const DEFAULT_CONTROL_SHARE = 0.1

export type ControlSampleSpec = { count: number } | { share: number }

/** The number to draw: a count as given, a share of the dataset's targets (at least one), never more than the pool. */
export function controlSampleSize(
  spec: ControlSampleSpec | undefined,
  targets: number,
  pool: number,
): number {
  const s = spec ?? { share: DEFAULT_CONTROL_SHARE }
  const wanted = 'count' in s ? s.count : Math.max(1, Math.round(s.share * targets))
  return Math.max(0, Math.min(wanted, pool))
}

/** A reproducible draw of n targets from the pool: the same seed and pool give the same controls. */
export function drawControls(pool: readonly number[], n: number, seed: number): number[] {
  const list = [...new Set(pool)].sort((a, b) => a - b)
  if (n >= list.length) return list
  const rand = mulberry32(seed)
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    ;[list[i], list[j]] = [list[j]!, list[i]!]
  }
  return list.slice(0, n).sort((a, b) => a - b)
}

/** The refusal when the controls would cover every target, so that nothing is left to label. */
export function everyTargetRefusal(targets: number): string {
  return `No controls were marked: this would make ${targets === 1 ? 'the one target a control' : `all ${countOf(targets, 'target')} controls`} and leave nothing to label (controls are left out of progress, agreement, cost and judge figures). Mark fewer, or confirm that every target should be a control.`
}
