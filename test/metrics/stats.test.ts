import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { auroc, correlate, kendallTauB, pearson, spearman } from '../../src/main/metrics/stats/correlation'
import { correctnessBits, mcnemar, mcnemarBits, mcnemarExact } from '../../src/main/metrics/stats/mcnemar'
import { dcrScore, refcheckerDistribution } from '../../src/main/metrics/stats/methods'
import { paretoFront, percentileOf, spread } from '../../src/main/metrics/stats/spread'

/** The O(n²) definition, to check the fast algorithm against. */
function tauBrute(x: number[], y: number[]): number | null {
  let c = 0
  let d = 0
  let tx = 0
  let ty = 0
  const n = x.length
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const a = Math.sign(x[i]! - x[j]!)
      const b = Math.sign(y[i]! - y[j]!)
      if (a === 0 && b === 0) continue
      if (a === 0) tx++
      else if (b === 0) ty++
      else if (a === b) c++
      else d++
    }
  const denom = Math.sqrt((c + d + tx) * (c + d + ty))
  return denom === 0 ? null : (c - d) / denom
}

describe('correlations', () => {
  it('Kendall τ-b matches the published SciPy example with ties', () => {
    // scipy.stats.kendalltau documentation: tau = -0.47140452079103173
    expect(kendallTauB([12, 2, 1, 12, 2], [1, 4, 7, 1, 0])).toBeCloseTo(-0.47140452079103173, 12)
  })

  it('Kendall τ-b equals the pairwise definition on random data with ties', () => {
    const xs = fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })), {
      minLength: 2,
      maxLength: 40,
    })
    fc.assert(
      fc.property(xs, (pairs) => {
        const x = pairs.map((p) => p[0])
        const y = pairs.map((p) => p[1])
        const fast = kendallTauB(x, y)
        const slow = tauBrute(x, y)
        if (slow === null) expect(fast).toBeNull()
        else {
          expect(fast).toBeCloseTo(slow, 10)
          expect(kendallTauB(y, x)).toBeCloseTo(slow, 10)
        }
      }),
    )
  })

  it('Pearson and Spearman agree with hand values and are not defined without variation', () => {
    expect(pearson([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12)
    expect(spearman([1, 2, 3, 4], [1, 8, 27, 64])).toBeCloseTo(1, 12)
    expect(pearson([1, 1, 1], [1, 2, 3])).toBeNull()
    expect(spearman([1], [1])).toBeNull()
  })

  it('AUROC counts ties as one half and needs both classes', () => {
    // positives 0.8, 0.5; negatives 0.5, 0.2: pairs (0.8>0.5)(0.8>0.2)(0.5=0.5)(0.5>0.2) → 3.5/4
    expect(auroc([0.8, 0.5, 0.5, 0.2], [true, true, false, false])).toBeCloseTo(0.875, 12)
    expect(auroc([0.1, 0.2], [true, true])).toBeNull()
  })

  it('reports AUROC only against a binary human side', () => {
    expect(correlate([0.9, 0.1, 0.7], [1, 0, 1]).auroc).toBe(1)
    expect(correlate([0.9, 0.1, 0.7], [5, 1, 4]).auroc).toBeNull()
  })
})

describe("McNemar's exact test", () => {
  it('matches the binomial tail by hand', () => {
    // b = 1, c = 5: 2 · (1 + 6) / 64
    expect(mcnemarExact(1, 5)).toBeCloseTo(14 / 64, 12)
    expect(mcnemarExact(5, 1)).toBeCloseTo(14 / 64, 12)
    expect(mcnemarExact(3, 3)).toBe(1)
    expect(mcnemarExact(0, 0)).toBe(1)
    expect(mcnemarExact(2000, 1500)).toBeLessThan(1e-6)
  })

  it('agrees with the term-by-term binomial sum on larger counts', () => {
    const slow = (b: number, c: number) => {
      const m = b + c
      let logTerm = -m * Math.LN2
      let tail = Math.exp(logTerm)
      for (let i = 1; i <= Math.min(b, c); i++) {
        logTerm += Math.log(m - i + 1) - Math.log(i)
        tail += Math.exp(logTerm)
      }
      return Math.min(1, 2 * tail)
    }
    for (const [b, c] of [
      [30, 45],
      [100, 130],
      [7, 0],
      [400, 420],
    ] as const)
      expect(mcnemarExact(b, c)).toBeCloseTo(slow(b, c), 10)
  })

  it('counts only targets both judges judged', () => {
    const r = mcnemar([1, 1, 0, -1, 1], [0, 1, 1, 1, -1])
    expect(r).toMatchObject({ n: 3, b: 1, c: 1 })
  })

  it('gives the same counts from bit sets as target by target', () => {
    const judge = fc.array(fc.constantFrom(-1, 0, 1), { minLength: 0, maxLength: 200 })
    fc.assert(
      fc.property(judge, judge, (x, y) => {
        const len = Math.min(x.length, y.length)
        const a = x.slice(0, len)
        const b = y.slice(0, len)
        expect(mcnemarBits(correctnessBits(a), correctnessBits(b))).toEqual(mcnemar(a, b))
      }),
    )
  })
})

describe('RefChecker and DCR figures', () => {
  it('macro-averages the label distribution over responses', () => {
    const rows = [
      { response: 1, verdict: 'entailment' },
      { response: 1, verdict: 'entailment' },
      { response: 1, verdict: 'neutral' },
      { response: 1, verdict: 'contradiction' },
      { response: 2, verdict: 'contradiction' },
    ]
    const { perResponse, macro } = refcheckerDistribution(rows)
    expect(perResponse.get(1)).toEqual({ entailment: 0.5, neutral: 0.25, contradiction: 0.25 })
    // response 2 weighs the same as response 1 despite having one triplet
    expect(macro).toEqual({ entailment: 0.25, neutral: 0.125, contradiction: 0.625 })
    expect(refcheckerDistribution([]).macro).toBeNull()
  })

  it('scores a candidate from its sentence marks', () => {
    expect(dcrScore([1, 1, -1, 1])).toEqual({ z: 0.5, score: 0.75 })
    expect(dcrScore([1, -1], 1, 0)).toEqual({ z: -0.5, score: 0.25 })
    expect(dcrScore([1], 0, 1)).toBeNull()
  })
})

describe('spread, Pareto front, percentiles', () => {
  it('summarises repeated runs', () => {
    expect(spread([0.1, 0.2, null, 0.3])).toMatchObject({ runs: 3, min: 0.1, max: 0.3 })
    expect(spread([0.1, 0.2, 0.3])!.mean).toBeCloseTo(0.2, 12)
    expect(spread([0.1, 0.2, 0.3])!.sd).toBeCloseTo(0.1, 12)
    expect(spread([0.4])!.sd).toBeNull()
    expect(spread([null])).toBeNull()
  })

  it('keeps only points no other point beats on both cost and error', () => {
    const pts = [
      { x: 1, y: 0.3 },
      { x: 2, y: 0.2 },
      { x: 3, y: 0.25 },
      { x: 0.5, y: 0.5 },
      { x: 5, y: 0.1 },
    ]
    expect(paretoFront(pts)).toEqual([0, 1, 3, 4])
  })

  it('uses nearest-rank percentiles', () => {
    expect(percentileOf([5, 1, 3, 2, 4], 50)).toBe(3)
    expect(percentileOf([5, 1, 3, 2, 4], 95)).toBe(5)
    expect(percentileOf([], 50)).toBeNull()
  })
})
