import { REFCHECKER_CLASSES, type RefClass } from '../stats/methods'

/**
 * A checker against the human triplet labels as the RefChecker paper scores checkers: accuracy
 * and macro-F1 over entailment / neutral / contradiction, in the three-way label space (not the
 * binary one the error rate's per-class figures use, where neutral and contradiction merge).
 * Macro-F1 averages the classes that occur among the human labels or the checker's (as
 * scikit-learn does without a fixed label list): a class neither side used has no F1 to average.
 * Pure.
 */
export interface ThreeWay {
  accuracy: number | null
  macroF1: number | null
  /** F1 per class; null for a class neither side used. */
  f1: Record<RefClass, number | null>
}

export function threeWayScores(pairs: readonly { human: RefClass; judge: RefClass }[]): ThreeWay {
  const tp = { entailment: 0, neutral: 0, contradiction: 0 }
  const gold = { entailment: 0, neutral: 0, contradiction: 0 }
  const pred = { entailment: 0, neutral: 0, contradiction: 0 }
  for (const p of pairs) {
    gold[p.human]++
    pred[p.judge]++
    if (p.human === p.judge) tp[p.human]++
  }
  const f1 = {} as Record<RefClass, number | null>
  const used: number[] = []
  for (const k of REFCHECKER_CLASSES) {
    const denom = gold[k] + pred[k]
    f1[k] = denom === 0 ? null : (2 * tp[k]) / denom
    if (f1[k] !== null) used.push(f1[k]!)
  }
  const n = pairs.length
  const right = tp.entailment + tp.neutral + tp.contradiction
  return {
    accuracy: n === 0 ? null : right / n,
    macroF1: used.length === 0 ? null : used.reduce((a, b) => a + b, 0) / used.length,
    f1,
  }
}
