import type { ITEM_SCORE_KINDS } from '../../../shared/contract/itemLevel'
import type { UnitKind } from '../../../shared/labelSchemas'
import { NONE, SUPPORTED } from '../stats/binary'
import { dcrScoreOfSum } from '../stats/methods'

/**
 * Item scores: one number per response (a candidate of an item: a summary, an answer) from the
 * verdicts or labels on its units, so that a judge can be compared with people at the level the
 * DCR paper reports (a summary's human consistency score against a metric's summary score).
 * Pure; the metrics service feeds it columns.
 */

export type ItemScoreKind = (typeof ITEM_SCORE_KINDS)[number]

/** What each item score is, as stated in the metrics JSON. */
export const ITEM_SCORE_DEFINITIONS: Record<ItemScoreKind, string> = {
  'share-supported':
    'facts and sentences: the share of the response’s units whose verdict maps to supported (units without a verdict left out)',
  'entailment-share':
    'triplets: the share of the response’s claim triplets whose verdict maps to supported (entailment in RefChecker’s schema); the response label is contradiction if any triplet is, else neutral if any is, else entailment',
  verdict:
    'whole responses: the verdict as a number (a numeric label, the schema’s score such as pass 2 / partially_pass 1 / fail 0, else 1 supported / 0 unsupported); the mean if a response has several whole units',
  dcr: 'DCR runs: Z = (Σ s_i − α) / (n − β) over the response’s sentence marks (+1 consistent, −1 inconsistent), rescaled (Z + 1) / 2, with the dataset’s α and β; n counts every sentence, so a response with an unmarked sentence (N/A, failed or not judged) gets no score and is counted as unmarked, as the judge gives none',
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

// Read once: the per-row path below would otherwise read them through the import.
const NO_VERDICT = NONE
const YES = SUPPORTED

/** Item scores of every response, column-wise: response r has a score when `has[r]` is 1. */
export interface ScoreColumns {
  has: Uint8Array
  score: Float64Array
  units: Int32Array
  /** Triplets only: RefChecker's response label per response. */
  labels: (string | null)[] | null
  /** Unit rows seen per response, scored or not (a judge that saw the response). */
  rows: Int32Array
  /** Responses with a score. */
  count: number
  /** DCR: responses reached with a sentence left unmarked, so without a score. */
  unmarked: number
}

/**
 * Collects the unit rows of one score kind into per-response counts, then scores every response
 * at once. Typed arrays instead of a list of rows per response: a million-target workspace
 * scores each run in one pass. Numbers are summed in row order, as a list would be.
 */
export class ItemScoreColumns {
  private readonly judged: Int32Array
  private readonly supported: Int32Array
  private readonly sum: Float64Array
  private readonly nums: Int32Array
  private readonly rows: Int32Array
  // DCR: sentences of the response without a mark
  private readonly missing: Int32Array | null
  // triplets: non-empty verdicts, any contradiction, any neutral, any other than entailment
  private readonly words: Int32Array | null
  private readonly flags: Uint8Array | null

  constructor(
    private readonly kind: ItemScoreKind,
    private readonly responses: number,
    private readonly dcr: { alpha: number; beta: number } = { alpha: 0, beta: 0 },
  ) {
    this.judged = new Int32Array(responses)
    this.supported = new Int32Array(responses)
    this.sum = new Float64Array(responses)
    this.nums = new Int32Array(responses)
    this.rows = new Int32Array(responses)
    this.missing = kind === 'dcr' ? new Int32Array(responses) : null
    this.words = kind === 'entailment-share' ? new Int32Array(responses) : null
    this.flags = kind === 'entailment-share' ? new Uint8Array(responses) : null
  }

  /** One unit row of response r (a dense index below `responses`). */
  add(r: number, bin: number, num: number, verdict: string | null): void {
    this.rows[r]!++
    if (Number.isFinite(num)) {
      this.sum[r]! += num
      this.nums[r]!++
    }
    if (bin === NO_VERDICT) return
    this.judged[r]!++
    if (bin === YES) this.supported[r]!++
    if (this.words && this.flags && verdict) {
      this.words[r]!++
      if (verdict === 'contradiction') this.flags[r]! |= 1
      else if (verdict === 'neutral') this.flags[r]! |= 2
      else if (verdict !== 'entailment') this.flags[r]! |= 4
    }
  }

  /**
   * DCR: a sentence of response r without a mark. `reached`: the run answered it (N/A, failed),
   * so the response counts as unmarked even if no other sentence was answered.
   */
  miss(r: number, reached: boolean): void {
    if (!this.missing) return
    this.missing[r]!++
    if (reached) this.rows[r]!++
  }

  finish(): ScoreColumns {
    const R = this.responses
    const out: ScoreColumns = {
      has: new Uint8Array(R),
      score: new Float64Array(R),
      units: new Int32Array(R),
      labels: this.flags ? new Array<string | null>(R).fill(null) : null,
      rows: this.rows,
      count: 0,
      unmarked: 0,
    }
    for (let r = 0; r < R; r++) {
      const judged = this.judged[r]!
      let score: number
      let units: number
      if (this.kind === 'verdict') {
        if (this.nums[r] === 0) continue
        score = this.sum[r]! / this.nums[r]!
        units = this.nums[r]!
      } else if (judged === 0) {
        if (this.missing?.[r] && this.rows[r]! > 0) out.unmarked++
        continue
      } else if (this.kind === 'dcr') {
        // Eq. 3's n is every sentence of the response: the judge gives no score short of all.
        if (this.missing![r]! > 0) {
          out.unmarked++
          continue
        }
        // Marks are ±1, so their sum is exact in any order.
        const d = dcrScoreOfSum(2 * this.supported[r]! - judged, judged, this.dcr.alpha, this.dcr.beta)
        if (!d) continue
        score = d.score
        units = judged
      } else {
        score = this.supported[r]! / judged
        units = judged
        if (out.labels && this.words![r]! > 0) {
          const f = this.flags![r]!
          out.labels[r] = f & 1 ? 'contradiction' : f & 2 ? 'neutral' : f & 4 ? null : 'entailment'
        }
      }
      out.has[r] = 1
      out.score[r] = score
      out.units[r] = units
      out.count++
    }
    return out
  }
}

/** Item scores of one unit kind (or DCR's score) from the verdicts on its units, by response id. */
export function itemScores(
  kind: ItemScoreKind,
  rows: readonly UnitVerdict[],
  dcr: { alpha: number; beta: number } = { alpha: 0, beta: 0 },
): Map<number, ItemScore> {
  const ids = [...new Set(rows.map((r) => r.response))]
  const index = new Map(ids.map((id, k) => [id, k]))
  const acc = new ItemScoreColumns(kind, ids.length, dcr)
  for (const r of rows) acc.add(index.get(r.response)!, r.bin, r.num, r.verdict)
  const c = acc.finish()
  const out = new Map<number, ItemScore>()
  ids.forEach((id, k) => {
    if (c.has[k])
      out.set(id, { score: c.score[k]!, units: c.units[k]!, responseLabel: c.labels?.[k] ?? null })
  })
  return out
}
