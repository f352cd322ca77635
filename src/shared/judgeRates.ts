/**
 * Rates a judge's figures are read with, defined once so `metrics --json`, the reports and the
 * Compare view say the same number in the same words.
 */

import { JUDGE_METHODS } from './domain'

export const RAI_NOTE =
  'Rate: corrected / every candidate of the round before found inconsistent, a rewrite that failed (not rewritten) or got no verdict counted as not corrected; Wilson’s 95% interval over those candidates (n). Cumulative: originals corrected by this round / originals found inconsistent (the DCR paper’s multi-round curve).'

/** What a method's verdicts are given on: FaaF and Prompt(T/F) judge facts, the others targets. */
export type CostUnit = 'facts' | 'targets'

const FACT_METHODS: readonly string[] = JUDGE_METHODS.filter((m) => m === 'prompt-tf' || m.startsWith('faaf'))

export const costUnitOf = (method: string): CostUnit => (FACT_METHODS.includes(method) ? 'facts' : 'targets')

/**
 * A run's cost per 1,000 verdicts: cost / judged targets × 1000, where N/A verdicts and transport
 * errors are left out of the count, as they are of the error rate (they were paid for and
 * answered nothing). Null with no verdict.
 */
export function costPer1000(cost: number, verdicts: number): number | null {
  return verdicts > 0 ? (cost / verdicts) * 1000 : null
}

export const COST_PER_1000_NOTE =
  'Cost per 1,000: the run’s cost / the targets (facts, for FaaF and Prompt(T/F)) it gave a verdict on × 1,000; N/A verdicts and transport errors are not counted, though they were paid for.'

/** The RAI table's columns, the same in the report and the Compare view. */
export const RAI_HEAD = [
  'Judge',
  'Round',
  'Inconsistent',
  'Corrected',
  'Not rewritten',
  'No verdict',
  'Rate [95% CI]',
  'Cumulative [95% CI]',
]
