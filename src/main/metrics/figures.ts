import type { Figures } from '../../shared/contract/metrics'
import { ST_ERROR, ST_NA, ST_NONE, ST_OK } from './runStatus'
import { binaryFigures, type Cells, emptyCells, UNSUPPORTED } from './stats/binary'
import { type BootstrapOptions, errorRateCi, f1Ci } from './stats/bootstrap'
import { type CandidateClusters, candidateIntervals, type VariantClusters } from './stats/candidateIntervals'
import { f1CiChoice, proportionCi, widerOf } from './stats/smallSample'

interface Tally {
  cells: Cells
  judged: number
  na: number
  errors: number
}

const emptyTally = (): Tally => ({ cells: emptyCells(), judged: 0, na: 0, errors: 0 })

/**
 * `clusters`: the judged pairs grouped by candidate. Where a candidate holds several of them
 * (facts of one FaaF call, sentences of one DCR call, triplets of one response), they are not
 * independent: the intervals are taken over candidates (candidateIntervals.ts), and the wider of
 * that and Wilson's over the targets is given, as RefChecker's are (smallSample.ts `widerCi`).
 * Where every candidate holds one, targets are the clusters and the target bootstrap stands.
 * Point figures are the same either way.
 */
function toFigures(t: Tally, boot: BootstrapOptions, clusters?: CandidateClusters): Figures {
  const f = binaryFigures(t.cells)
  const c = t.cells
  const over = clusters !== undefined && clusters.count < f.n ? candidateIntervals(clusters, boot) : null
  const er = over
    ? widerOf(c.fp + c.fn, f.n, over.errorRate)
    : proportionCi(c.fp + c.fn, f.n, () => errorRateCi(c, boot))
  // F1 on unsupported is the Dice proportion tp / (tp + (fp + fn) / 2): Wilson's is taken on it.
  const f1 = over ? widerOf(c.tp, c.tp + (c.fp + c.fn) / 2, over.f1) : f1CiChoice(c, () => f1Ci(c, boot))
  return {
    n: f.n,
    judged: t.judged,
    na: t.na,
    errors: t.errors,
    naRate: t.judged === 0 ? null : t.na / t.judged,
    transportErrorRate: t.judged === 0 ? null : t.errors / t.judged,
    errorRate: f.errorRate,
    errorRateCi: er.ci,
    errorRateCiMethod: er.method,
    accuracy: f.accuracy,
    f1Unsupported: f.f1Unsupported,
    f1Ci: f1.ci,
    f1CiMethod: f1.method,
    kappa: f.kappa,
  }
}

// Counters per variant, side by side in one typed array: judged, N/A, errors, then the cells.
export const JUDGED = 0
export const NA = 1
export const ERRORS = 2
const TP = 3
/** The first of the four cells (TP, FP, FN, TN), the last slots of a variant's counts. */
export const FIRST_CELL = TP
const FP = 4
const FN = 5
const TN = 6
const SLOTS = 7

function tallyAt(counts: Int32Array, v: number): Tally {
  const o = v * SLOTS
  return {
    judged: counts[o + JUDGED]!,
    na: counts[o + NA]!,
    errors: counts[o + ERRORS]!,
    cells: { tp: counts[o + TP]!, fp: counts[o + FP]!, fn: counts[o + FN]!, tn: counts[o + TN]! },
  }
}

/** The confusion cell of a judged pair with both sides present (binary codes). */
export const cellOf = (j: number, g: number): number =>
  j === UNSUPPORTED ? (g === UNSUPPORTED ? TP : FP) : g === UNSUPPORTED ? FN : TN

/**
 * Figures overall and per variant in one pass. `status` is null for human rows (every present
 * label is a verdict).
 */
export function figuresByVariant(
  judge: Int8Array,
  gold: Int8Array,
  status: Uint8Array | null,
  variant: Uint16Array,
  variants: readonly string[],
  boot: BootstrapOptions,
): { overall: Figures; cells: Cells; byVariant: Record<string, Figures> } {
  const counts = new Int32Array(variants.length * SLOTS)
  for (let i = 0; i < judge.length; i++) {
    const j = judge[i]!
    const st = status === null ? (j < 0 ? ST_NONE : ST_OK) : status[i]!
    if (st === ST_NONE) continue
    const o = variant[i]! * SLOTS
    counts[o + JUDGED]!++
    if (st === ST_NA) counts[o + NA]!++
    else if (st === ST_ERROR) counts[o + ERRORS]!++
    else {
      const g = gold[i]!
      // A pair where either side has no binary outcome counts as judged but not in the cells.
      if (j < 0 || g < 0) continue
      counts[o + cellOf(j, g)]!++
    }
  }
  return figuresOfCounts(counts, variants, boot)
}

/** Per variant, the counts a pass tallies: judged, N/A, errors, then the four cells. */
export const FIGURE_SLOTS = SLOTS

/**
 * Adds one human verdict `j` against gold `g` (binary codes, −1 none; `j` present) to the
 * counts of variant `v` starting at `offset`, as `figuresByVariant` counts a row without status.
 */
export function countVerdict(counts: Int32Array, offset: number, v: number, j: number, g: number): void {
  const o = offset + v * SLOTS
  counts[o + JUDGED]!++
  if (j < 0 || g < 0) return
  counts[o + cellOf(j, g)]!++
}

/** `figuresByVariant` from its counts (one SLOTS-wide group per variant, in `variants` order). */
export function figuresOfCounts(
  counts: Int32Array,
  variants: readonly string[],
  boot: BootstrapOptions,
  clusters?: VariantClusters,
): { overall: Figures; cells: Cells; byVariant: Record<string, Figures> } {
  const all = emptyTally()
  const byVariant: Record<string, Figures> = {}
  variants.forEach((name, k) => {
    const v = tallyAt(counts, k)
    all.judged += v.judged
    all.na += v.na
    all.errors += v.errors
    all.cells.tp += v.cells.tp
    all.cells.fp += v.cells.fp
    all.cells.fn += v.cells.fn
    all.cells.tn += v.cells.tn
    if (v.judged > 0) byVariant[name] = toFigures(v, boot, clusters?.byVariant[k])
  })
  return { overall: toFigures(all, boot, clusters?.overall), cells: all.cells, byVariant }
}
