import { describe, expect, it } from 'vitest'
import { figuresOfCounts } from '../../src/main/metrics/figures'
import { variantClustersOfPatterns } from '../../src/main/metrics/stats/candidateIntervals'
import { clusterIntervals, patternsOf } from '../../src/main/metrics/stats/clusterBootstrap'

/** Figure counts of one variant: judged, N/A, errors, then tp, fp, fn, tn. */
const countsOf = (c: { tp: number; fp: number; fn: number; tn: number }) =>
  Int32Array.from([c.tp + c.fp + c.fn + c.tn, 0, 0, c.tp, c.fp, c.fn, c.tn])

// 20 candidates of 5 facts each (one FaaF call apiece), all gold supported. The judge gets every
// fact of 4 candidates wrong (its call misread the passage) and every other fact right:
// ER = 20 / 100. Drawing 20 candidates, the wrong ones are Binomial(20, 0.2), so ER's bootstrap
// is that over 20. By hand: P(X ≤ 0) = 0.0115, P(X ≤ 1) = 0.0692 → 2.5% point 1/20 = 0.05;
// P(X ≤ 7) = 0.9679, P(X ≤ 8) = 0.9900 → 97.5% point 8/20 = 0.40 (7/20 = 0.35 within Monte Carlo
// noise). Treating the 100 facts as independent, Wilson gives [0.133, 0.289].
const wrongCall = { tp: 0, fp: 5, fn: 0, tn: 0, count: 4 }
const rightCall = { tp: 0, fp: 0, fn: 0, tn: 5, count: 16 }
const cells = { tp: 0, fp: 20, fn: 0, tn: 80 }

describe('the cluster bootstrap over candidates', () => {
  it('resamples whole calls: the ER interval is that of 4 wrong calls in 20, not 20 wrong facts in 100', () => {
    const { errorRate } = clusterIntervals([wrongCall, rightCall], { seed: 1 })
    expect(errorRate![0]).toBeCloseTo(0.05, 10)
    expect(errorRate![1]).toBeGreaterThanOrEqual(0.35)
    expect(errorRate![1]).toBeLessThanOrEqual(0.4)
  })

  it('gives ER the wider interval, with the point estimate unchanged, and the same one for the same seed', () => {
    const iid = figuresOfCounts(countsOf(cells), ['answer'], { seed: 1 }).overall
    const clustered = figuresOfCounts(
      countsOf(cells),
      ['answer'],
      { seed: 1 },
      variantClustersOfPatterns([[wrongCall, rightCall]]),
    ).overall
    expect(clustered.errorRate).toBe(iid.errorRate)
    expect(clustered.errorRate).toBe(0.2)
    expect(clustered.errorRateCiMethod).toBe('bootstrap')
    expect(clustered.errorRateCi![0]).toBeCloseTo(0.05, 10)
    // The target-by-target interval was far narrower: about ±0.08 around 0.2.
    expect(iid.errorRateCi![1] - iid.errorRateCi![0]).toBeLessThan(0.18)
    expect(clustered.errorRateCi![1] - clustered.errorRateCi![0]).toBeGreaterThan(0.29)
    const again = figuresOfCounts(
      countsOf(cells),
      ['answer'],
      { seed: 1 },
      variantClustersOfPatterns([[wrongCall, rightCall]]),
    ).overall
    expect(again.errorRateCi).toEqual(clustered.errorRateCi)
  })

  it('keeps Wilson’s over the targets where the candidate bootstrap reaches an end the count rules out', () => {
    // The audit's case: 10 candidates of 6 facts, all 6 wrong in 3. Of the resamples of 10,
    // 0.7¹⁰ = 2.8% (> 2.5%) draw no wrong call, so the bootstrap's lower end is 0: ruled out by
    // 18 wrong facts. Wilson over the 60 facts, 18/60 (z = 1.96): [0.1990, 0.4251].
    const f = figuresOfCounts(
      countsOf({ tp: 0, fp: 18, fn: 0, tn: 42 }),
      ['answer'],
      { seed: 1 },
      variantClustersOfPatterns([
        [
          { tp: 0, fp: 6, fn: 0, tn: 0, count: 3 },
          { tp: 0, fp: 0, fn: 0, tn: 6, count: 7 },
        ],
      ]),
    ).overall
    expect(f.errorRateCiMethod).toBe('wilson')
    expect(f.errorRateCi![0]).toBeCloseTo(0.199, 4)
    expect(f.errorRateCi![1]).toBeCloseTo(0.4251, 4)
  })

  it('leaves the target bootstrap where every candidate holds one target', () => {
    const c = { tp: 6, fp: 4, fn: 3, tn: 27 }
    const ones = [
      { tp: 1, fp: 0, fn: 0, tn: 0, count: 6 },
      { tp: 0, fp: 1, fn: 0, tn: 0, count: 4 },
      { tp: 0, fp: 0, fn: 1, tn: 0, count: 3 },
      { tp: 0, fp: 0, fn: 0, tn: 1, count: 27 },
    ]
    const plain = figuresOfCounts(countsOf(c), ['answer'], { seed: 3 }).overall
    expect(
      figuresOfCounts(countsOf(c), ['answer'], { seed: 3 }, variantClustersOfPatterns([ones])).overall,
    ).toEqual(plain)
  })

  it('groups candidates by their four cells', () => {
    const cellsOf = Int32Array.from([0, 5, 0, 0, 1, 0, 0, 4, 0, 5, 0, 0, 0, 0, 0, 0])
    expect(patternsOf(cellsOf, [0, 1, 2, 3])).toEqual([
      { tp: 0, fp: 5, fn: 0, tn: 0, count: 2 },
      { tp: 1, fp: 0, fn: 0, tn: 4, count: 1 },
    ])
  })
})
