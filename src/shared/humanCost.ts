import type { HumanMetrics } from './contract/metrics'
import { countOf } from './plural'

/**
 * Why a person has no cost on the Compare view's cost axis, in the words the project dashboard
 * uses: labels saved from the CLI, a file or a bundle carry no active time (unknown, not zero), and
 * a person with time but no hourly rate (theirs or the dataset's) has hours but no money.
 */
export const NO_TIME_RECORDED = 'no time recorded'
export const NO_RATE = 'no rate'

export const NO_TIME_TITLE =
  'Labels saved from the CLI, a file or a bundle made that way carry no active time: their time is unknown, not zero'
export const NO_RATE_TITLE = 'No hourly rate for this person or the dataset (set one in the plan)'

/** The words in place of a person's cost, or null when the cost is there. */
export function humanCostGap(h: Pick<HumanMetrics, 'cost' | 'activeSeconds'>): string | null {
  if (h.cost != null) return null
  return (h.activeSeconds ?? 0) > 0 ? NO_RATE : NO_TIME_RECORDED
}

/**
 * Said beside a person's cost per 1,000 when some of their labels carry no time: the figure is
 * over the timed labels only, and those are left out of it.
 */
export function untimedWords(untimed: number): string {
  return `${countOf(untimed, 'untimed label')} left out`
}
