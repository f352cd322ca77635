/**
 * Judge-vs-gold figures on the binary supported / unsupported outcome. Everything is derived
 * from the four cell counts, so callers can aggregate in one pass over typed arrays and the
 * bootstrap can resample counts instead of rows.
 */

/** Binary outcome codes used in typed arrays: 0 supported, 1 unsupported, -1 none. */
export const SUPPORTED = 0
export const UNSUPPORTED = 1
export const NONE = -1

/** Cells with "unsupported" as the positive class (the class F1 is reported on). */
export interface Cells {
  /** judge unsupported, gold unsupported */
  tp: number
  /** judge unsupported, gold supported */
  fp: number
  /** judge supported, gold unsupported */
  fn: number
  /** judge supported, gold supported */
  tn: number
}

export interface ClassScores {
  precision: number | null
  recall: number | null
  f1: number | null
}

export interface BinaryFigures {
  n: number
  errorRate: number | null
  accuracy: number | null
  f1Unsupported: number | null
  perClass: { supported: ClassScores; unsupported: ClassScores }
  kappa: number | null
}

export function emptyCells(): Cells {
  return { tp: 0, fp: 0, fn: 0, tn: 0 }
}

/** Adds one judged pair; pairs where either side has no binary outcome are skipped. */
export function addPair(cells: Cells, judge: number, gold: number): void {
  if (judge < 0 || gold < 0) return
  if (judge === UNSUPPORTED) {
    if (gold === UNSUPPORTED) cells.tp++
    else cells.fp++
  } else if (gold === UNSUPPORTED) cells.fn++
  else cells.tn++
}

export function cellsOf(judge: ArrayLike<number>, gold: ArrayLike<number>): Cells {
  const cells = emptyCells()
  for (let i = 0; i < judge.length; i++) addPair(cells, judge[i]!, gold[i]!)
  return cells
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b)

function f1(p: number | null, r: number | null): number | null {
  if (p === null || r === null) return null
  return p + r === 0 ? 0 : (2 * p * r) / (p + r)
}

export function errorRate(c: Cells): number | null {
  return ratio(c.fp + c.fn, c.tp + c.fp + c.fn + c.tn)
}

/** F1 on the unsupported class; null when neither judge nor gold ever says unsupported. */
export function f1Unsupported(c: Cells): number | null {
  const denom = 2 * c.tp + c.fp + c.fn
  return denom === 0 ? null : (2 * c.tp) / denom
}

export function binaryKappa(c: Cells): number | null {
  const n = c.tp + c.fp + c.fn + c.tn
  if (n === 0) return null
  const po = (c.tp + c.tn) / n
  const pe = ((c.tp + c.fp) / n) * ((c.tp + c.fn) / n) + ((c.tn + c.fn) / n) * ((c.tn + c.fp) / n)
  if (pe >= 1 - 1e-12) return null
  return (po - pe) / (1 - pe)
}

export function binaryFigures(c: Cells): BinaryFigures {
  const n = c.tp + c.fp + c.fn + c.tn
  const er = errorRate(c)
  const pu = ratio(c.tp, c.tp + c.fp)
  const ru = ratio(c.tp, c.tp + c.fn)
  const ps = ratio(c.tn, c.tn + c.fn)
  const rs = ratio(c.tn, c.tn + c.fp)
  return {
    n,
    errorRate: er,
    accuracy: er === null ? null : 1 - er,
    f1Unsupported: f1Unsupported(c),
    perClass: {
      supported: { precision: ps, recall: rs, f1: f1(ps, rs) },
      unsupported: { precision: pu, recall: ru, f1: f1(pu, ru) },
    },
    kappa: binaryKappa(c),
  }
}

/**
 * A confusion matrix in any label space: rows are gold, columns the judge, both indexed by
 * code (codes < 0 are skipped).
 */
export function confusionMatrix(judge: ArrayLike<number>, gold: ArrayLike<number>, k: number): number[][] {
  const m = Array.from({ length: k }, () => new Array<number>(k).fill(0))
  for (let i = 0; i < judge.length; i++) {
    const j = judge[i]!
    const g = gold[i]!
    if (j >= 0 && g >= 0 && j < k && g < k) m[g]![j]!++
  }
  return m
}
