import { describe, expect, it } from 'vitest'
import { threeWayScores } from '../../src/main/metrics/refchecker/threeWay'
import type { RefClass } from '../../src/main/metrics/stats/methods'
import { costPer1000, costUnitOf } from '../../src/shared/judgeRates'

const pairs = (human: RefClass, judge: RefClass, n: number) =>
  Array.from({ length: n }, () => ({ human, judge }))

describe('a RefChecker checker against the human labels, three-way', () => {
  it('gives accuracy and macro-F1 as the paper scores checkers (the audit’s case, by hand)', () => {
    // gold → checker: E→E 5, N→C 2, C→C 3. Accuracy 8/10. F1: E 2·5/(5+5) = 1; N 0/(2+0) = 0;
    // C 2·3/(3+5) = 0.75. Macro-F1 = (1 + 0 + 0.75) / 3 = 0.5833.
    const s = threeWayScores([
      ...pairs('entailment', 'entailment', 5),
      ...pairs('neutral', 'contradiction', 2),
      ...pairs('contradiction', 'contradiction', 3),
    ])
    expect(s.accuracy).toBe(0.8)
    expect(s.f1).toEqual({ entailment: 1, neutral: 0, contradiction: 0.75 })
    expect(s.macroF1).toBeCloseTo(0.58333, 5)
  })

  it('leaves a class neither side used out of the macro average', () => {
    const s = threeWayScores([
      ...pairs('entailment', 'entailment', 3),
      ...pairs('contradiction', 'entailment', 1),
    ])
    // E: 2·3/(3+4) = 0.857; C: 0/(1+0) = 0; neutral unused → (0.857 + 0) / 2.
    expect(s.f1.neutral).toBeNull()
    expect(s.macroF1).toBeCloseTo(3 / 7, 10)
    expect(threeWayScores([])).toEqual({
      accuracy: null,
      macroF1: null,
      f1: { entailment: null, neutral: null, contradiction: null },
    })
  })
})

describe('cost per 1,000', () => {
  it('divides by the targets given a verdict and names facts for fact methods', () => {
    // $0.50 over 250 verdicts (N/A and errors already left out by the caller) → $2 per 1,000.
    expect(costPer1000(0.5, 250)).toBe(2)
    expect(costPer1000(0.5, 0)).toBeNull()
    expect(costUnitOf('faaf-tfn-cite')).toBe('facts')
    expect(costUnitOf('prompt-tf')).toBe('facts')
    expect(costUnitOf('refchecker')).toBe('targets')
  })
})
