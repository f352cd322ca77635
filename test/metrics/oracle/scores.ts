// Oracle: the item-level code as it was before the columnar rewrite (kept only for the
// equality tests in itemLevelOracle.test.ts and pairCorrelations.test.ts). Nothing in src imports it.

import { NONE, SUPPORTED } from '../../../src/main/metrics/stats/binary'
import { dcrScore } from '../../../src/main/metrics/stats/methods'
import type { UnitKind } from '../../../src/shared/labelSchemas'

/**
 * Item scores: one number per response (a candidate of an item: a summary, an answer) from the
 * verdicts or labels on its units, so that a judge can be compared with people at the level the
 * DCR paper reports (a summary's human consistency score against a metric's summary score).
 * Pure; the metrics service feeds it columns.
 */

export const ITEM_SCORE_KINDS = [
  'share-supported',
  'entailment-share',
  'verdict',
  'dcr',
  'rouge1',
  'rouge2',
  'rougeL',
] as const
export type ItemScoreKind = (typeof ITEM_SCORE_KINDS)[number]

/** What each item score is, as stated in the metrics JSON. */
export const ITEM_SCORE_DEFINITIONS: Record<ItemScoreKind, string> = {
  'share-supported':
    'facts and sentences: the share of the response’s units whose verdict maps to supported (units without a verdict left out)',
  'entailment-share':
    'triplets: the share of the response’s claim triplets whose verdict maps to supported (entailment in RefChecker’s schema); the response label is contradiction if any triplet is, else neutral if any is, else entailment',
  verdict:
    'whole responses: the verdict as a number (a numeric label, the schema’s score such as pass 2 / partially_pass 1 / fail 0, else 1 supported / 0 unsupported); the mean if a response has several whole units',
  dcr: 'DCR runs: Z = (Σ s_i − α) / (n − β) over the response’s sentence marks (+1 consistent, −1 inconsistent), rescaled (Z + 1) / 2, with the dataset’s α and β',
  rouge1: 'lexical runs: ROUGE-1 F-measure of the whole response against the reference',
  rouge2: 'lexical runs: ROUGE-2 F-measure of the whole response against the reference',
  rougeL: 'lexical runs: ROUGE-L F-measure of the whole response against the reference',
}

/** The score kind the verdicts on units of one kind give (DCR runs use `dcr` instead). */
export function scoreKindFor(kind: UnitKind): ItemScoreKind {
  if (kind === 'triplet') return 'entailment-share'
  if (kind === 'whole') return 'verdict'
  return 'share-supported'
}

/** One verdict or label on a unit of a response: its binary code, number and schema word. */
export interface UnitVerdict {
  response: number
  /** SUPPORTED, UNSUPPORTED or NONE (binary.ts) */
  bin: number
  num: number
  verdict: string | null
}

export interface ItemScore {
  score: number
  /** Units that counted. */
  units: number
  /** Triplets only: RefChecker's response label. */
  responseLabel: string | null
}

function group(rows: readonly UnitVerdict[]): Map<number, UnitVerdict[]> {
  const out = new Map<number, UnitVerdict[]>()
  for (const r of rows) {
    const list = out.get(r.response)
    if (list) list.push(r)
    else out.set(r.response, [r])
  }
  return out
}

/**
 * RefChecker's label for a whole response: one contradicted claim makes it a contradiction,
 * else one unverifiable claim makes it neutral; only a response whose every claim is entailed
 * is entailment.
 */
export function responseLabel(verdicts: readonly string[]): string | null {
  if (verdicts.length === 0) return null
  if (verdicts.includes('contradiction')) return 'contradiction'
  if (verdicts.includes('neutral')) return 'neutral'
  return verdicts.every((v) => v === 'entailment') ? 'entailment' : null
}

/** Item scores of one unit kind (or DCR's score) from the verdicts on its units. */
export function itemScores(
  kind: ItemScoreKind,
  rows: readonly UnitVerdict[],
  dcr: { alpha: number; beta: number } = { alpha: 0, beta: 0 },
): Map<number, ItemScore> {
  const out = new Map<number, ItemScore>()
  for (const [response, list] of group(rows)) {
    if (kind === 'verdict') {
      const nums = list.map((r) => r.num).filter(Number.isFinite)
      if (nums.length > 0)
        out.set(response, {
          score: nums.reduce((a, b) => a + b, 0) / nums.length,
          units: nums.length,
          responseLabel: null,
        })
      continue
    }
    const judged = list.filter((r) => r.bin !== NONE)
    if (judged.length === 0) continue
    const supported = judged.filter((r) => r.bin === SUPPORTED).length
    if (kind === 'dcr') {
      const d = dcrScore(
        judged.map((r) => (r.bin === SUPPORTED ? 1 : -1)),
        dcr.alpha,
        dcr.beta,
      )
      if (d) out.set(response, { score: d.score, units: judged.length, responseLabel: null })
      continue
    }
    out.set(response, {
      score: supported / judged.length,
      units: judged.length,
      responseLabel:
        kind === 'entailment-share'
          ? responseLabel(judged.map((r) => r.verdict ?? '').filter(Boolean))
          : null,
    })
  }
  return out
}
