import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  binaryFigures,
  cellsOf,
  confusionMatrix,
  errorRate,
  f1Unsupported,
  NONE,
} from '../../src/main/metrics/stats/binary'
import {
  bootstrapCells,
  errorRateCi,
  f1Ci,
  mulberry32,
  resampleCells,
} from '../../src/main/metrics/stats/bootstrap'

// 0 supported, 1 unsupported
const judge = [1, 1, 0, 0, 1, 0, 0, 0, 1, 0]
const gold = [1, 0, 0, 1, 1, 0, 0, 0, 1, 0]

describe('binary judge figures', () => {
  it('matches a hand-worked example', () => {
    const c = cellsOf(judge, gold)
    // tp: 0,4,8 → 3; fp: 1 → 1; fn: 3 → 1; tn: 5
    expect(c).toEqual({ tp: 3, fp: 1, fn: 1, tn: 5 })
    const f = binaryFigures(c)
    expect(f.errorRate).toBeCloseTo(0.2, 12)
    expect(f.accuracy).toBeCloseTo(0.8, 12)
    // P = 3/4, R = 3/4 → F1 = 0.75
    expect(f.f1Unsupported).toBeCloseTo(0.75, 12)
    expect(f.perClass.supported.precision).toBeCloseTo(5 / 6, 12)
    // po = 0.8; pe = 0.4·0.4 + 0.6·0.6 = 0.52 → κ = 0.28 / 0.48
    expect(f.kappa).toBeCloseTo(0.28 / 0.48, 12)
  })

  it('skips pairs without an outcome on either side', () => {
    const c = cellsOf([1, NONE, 0], [1, 0, NONE])
    expect(binaryFigures(c).n).toBe(1)
  })

  it('gives "not defined" (null) rather than NaN on empty or one-class data', () => {
    const empty = binaryFigures(cellsOf([], []))
    expect(empty.errorRate).toBeNull()
    expect(empty.kappa).toBeNull()
    const allSupported = binaryFigures(cellsOf([0, 0], [0, 0]))
    expect(allSupported.errorRate).toBe(0)
    expect(allSupported.f1Unsupported).toBeNull()
    expect(allSupported.kappa).toBeNull()
  })

  it('builds a confusion matrix with gold rows and judge columns', () => {
    expect(confusionMatrix([0, 2, 2, 1], [0, 2, 1, -1], 3)).toEqual([
      [1, 0, 0],
      [0, 0, 1],
      [0, 0, 1],
    ])
  })

  it('ER = 1 − accuracy and is invariant to row order', () => {
    const pair = fc.tuple(fc.integer({ min: -1, max: 1 }), fc.integer({ min: -1, max: 1 }))
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 60 }), (pairs) => {
        const f = binaryFigures(
          cellsOf(
            pairs.map((p) => p[0]),
            pairs.map((p) => p[1]),
          ),
        )
        const r = [...pairs].reverse()
        const g = binaryFigures(
          cellsOf(
            r.map((p) => p[0]),
            r.map((p) => p[1]),
          ),
        )
        expect(g).toEqual(f)
        if (f.errorRate !== null) expect(f.errorRate).toBeCloseTo(1 - f.accuracy!, 12)
        if (f.kappa !== null) expect(f.kappa).toBeLessThanOrEqual(1 + 1e-12)
      }),
    )
  })
})

describe('bootstrap', () => {
  const cells = { tp: 30, fp: 12, fn: 8, tn: 150 }

  it('is reproducible for a seed and brackets the point estimate', () => {
    const a = errorRateCi(cells, { seed: 7 })
    expect(errorRateCi(cells, { seed: 7 })).toEqual(a)
    expect(a![0]).toBeLessThan(0.1)
    expect(a![1]).toBeGreaterThan(0.1)
    const f = f1Ci(cells, { seed: 7 })!
    expect(f1Ci(cells, { seed: 7 })).toEqual(f)
    // F1 is not quantised like ER, so another seed shows as another interval.
    expect(f1Ci(cells, { seed: 8 })).not.toEqual(f)
    expect(f[0]).toBeLessThan(0.75)
    expect(f[1]).toBeGreaterThan(0.75)
  })

  it('is close to the normal-theory interval for a large sample', () => {
    const big = { tp: 3000, fp: 1200, fn: 800, tn: 15000 }
    const er = 2000 / 20000
    const half = 1.96 * Math.sqrt((er * (1 - er)) / 20000)
    const [lo, hi] = errorRateCi(big, { seed: 3 })!
    expect(lo).toBeCloseTo(er - half, 2)
    expect(hi).toBeCloseTo(er + half, 2)
  })

  it('gives the same intervals as resampling all four cells', () => {
    const full = bootstrapCells(cells, errorRate, { seed: 11, replicates: 4000 })!
    const fast = errorRateCi(cells, { seed: 12, replicates: 4000 })!
    expect(fast[0]).toBeCloseTo(full[0], 1)
    expect(fast[1]).toBeCloseTo(full[1], 1)
    const fullF1 = bootstrapCells(cells, f1Unsupported, { seed: 11, replicates: 4000 })!
    const fastF1 = f1Ci(cells, { seed: 12, replicates: 4000 })!
    expect(Math.abs(fastF1[0] - fullF1[0])).toBeLessThan(0.02)
    expect(Math.abs(fastF1[1] - fullF1[1])).toBeLessThan(0.02)
  })

  it('keeps resampled totals equal to n', () => {
    const rand = mulberry32(5)
    for (let k = 0; k < 50; k++) {
      const r = resampleCells(cells, rand)
      expect(r.tp + r.fp + r.fn + r.tn).toBe(200)
      expect(Math.min(r.tp, r.fp, r.fn, r.tn)).toBeGreaterThanOrEqual(0)
    }
  })

  it('has no interval without data and a degenerate one for a one-class sample', () => {
    expect(errorRateCi({ tp: 0, fp: 0, fn: 0, tn: 0 })).toBeNull()
    expect(errorRateCi({ tp: 0, fp: 0, fn: 0, tn: 9 })).toEqual([0, 0])
    expect(f1Ci({ tp: 0, fp: 0, fn: 0, tn: 9 })).toBeNull()
  })
})
