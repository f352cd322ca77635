import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { itemCorrelation } from '../../../src/main/metrics/items/correlate'
import { readableCorrelation } from '../../../src/main/metrics/items/readable'
import { correlate, readableCorrelations } from '../../../src/main/metrics/stats/correlation'
import { fisherInterval, zFor } from '../../../src/main/metrics/stats/fisher'
import type { ItemLevel } from '../../../src/shared/contract/itemLevel'
import { itemLevelJson } from '../../../src/shared/itemLevelJson'
import { coefficientCell, itemLevelRows } from '../../../src/shared/itemLevelRows'

/*
 * Correlations over a handful of pairs. Reference values from SciPy 1.17 (computed once, written
 * out here): `pearsonr(x, y).confidence_interval()` is Fisher's z interval; the Spearman and
 * Kendall bounds are Bonett & Wright's and Fieller's standard errors worked in NumPy.
 */
const X8 = [1, 2, 3, 4, 5, 6, 7, 8]
const Y8 = [2, 1, 4, 3, 7, 5, 8, 6]
const boot = { seed: 1, replicates: 300 }

describe('Fisher z intervals', () => {
  it('match SciPy on eight pairs', () => {
    const c = itemCorrelation(X8, Y8, boot)
    expect(c.pearson).toBeCloseTo(0.8333333333333331, 12)
    const p = fisherInterval('pearson', c.pearson, 8)!
    expect(p[0]).toBeCloseTo(0.31169805718344, 9)
    expect(p[1]).toBeCloseTo(0.968989208891987, 9)
    const s = fisherInterval('spearman', c.spearman, 8)!
    expect(s[0]).toBeCloseTo(0.1795994720536154, 9)
    expect(s[1]).toBeCloseTo(0.9765132460961133, 9)
    const k = fisherInterval('kendallTauB', c.kendallTauB, 8)!
    expect(c.kendallTauB).toBeCloseTo(0.6428571428571428, 12)
    expect(k[0]).toBeCloseTo(0.11469455894098358, 9)
    expect(k[1]).toBeCloseTo(0.8876755171790176, 9)
  })

  it('take the 95% z to the digits of the Wilson interval, and other levels close to it', () => {
    expect(zFor(0.95)).toBe(1.959963984540054)
    expect(Math.abs(zFor(0.99) - 2.5758293035489004)).toBeLessThan(0.01)
    expect(Math.abs(zFor(0.9) - 1.6448536269514722)).toBeLessThan(0.01)
    const wider = fisherInterval('pearson', 0.8333333333333331, 8, 0.99)!
    expect(wider[0]).toBeLessThan(0.31169805718344)
  })

  it('give none where they cannot: under four pairs, Kendall under five, and at ±1', () => {
    expect(fisherInterval('pearson', 0.9, 3)).toBeNull()
    expect(fisherInterval('pearson', 0.9, 4)).not.toBeNull()
    expect(fisherInterval('kendallTauB', 0.9, 4)).toBeNull()
    expect(fisherInterval('pearson', 1, 12)).toBeNull()
    expect(fisherInterval('spearman', -1, 12)).toBeNull()
    expect(fisherInterval('pearson', null, 12)).toBeNull()
  })

  it('always hold the coefficient, inside [−1, 1], and narrow as pairs are added', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -0.999, max: 0.999, noNaN: true }),
        fc.integer({ min: 5, max: 500 }),
        fc.constantFrom('pearson' as const, 'spearman' as const, 'kendallTauB' as const),
        (r, n, which) => {
          const iv = fisherInterval(which, r, n)!
          const wider = fisherInterval(which, r, n + 10)!
          expect(iv[0]).toBeLessThanOrEqual(r + 1e-12)
          expect(iv[1]).toBeGreaterThanOrEqual(r - 1e-12)
          expect(iv[0]).toBeGreaterThanOrEqual(-1)
          expect(iv[1]).toBeLessThanOrEqual(1)
          expect(wider[1] - wider[0]).toBeLessThanOrEqual(iv[1] - iv[0] + 1e-12)
        },
      ),
    )
  })
})

describe('item correlations on small samples', () => {
  it('two items: no coefficient at all, though the raw figure is an exact 1', () => {
    // The QA case: two responses, the judge scores them in the human order, so every
    // coefficient is 1 by construction.
    const raw = itemCorrelation([0.5, 1], [0, 1], boot)
    expect(raw.pearson).toBe(1)
    const c = readableCorrelation(raw)
    expect(c).toEqual({
      n: 2,
      pearson: null,
      pearsonCi: null,
      spearman: null,
      spearmanCi: null,
      kendallTauB: null,
      kendallTauBCi: null,
      ciMethod: null,
    })
    expect(readableCorrelation(itemCorrelation([0.1, 0.5, 1], [0, 0.4, 1], boot)).pearson).toBeNull()
  })

  it('four to nineteen items: the coefficient with a Fisher interval instead of the bootstrap', () => {
    const c = readableCorrelation(itemCorrelation(X8, Y8, boot))
    expect(c.ciMethod).toBe('fisher')
    expect(c.pearson).toBeCloseTo(0.8333333333333331, 12)
    expect(c.pearsonCi![0]).toBeCloseTo(0.31169805718344, 9)
    // Over eight pairs the bootstrap interval is far narrower than the Fisher one: too sure.
    const raw = itemCorrelation(X8, Y8, boot)
    expect(raw.pearsonCi![0]).toBeGreaterThan(c.pearsonCi![0])
  })

  it('twenty items or more: the bootstrap figures, unchanged', () => {
    const x = Array.from({ length: 24 }, (_, i) => (i * 7) % 11)
    const y = x.map((v, i) => v + ((i * 5) % 4))
    const raw = itemCorrelation(x, y, boot)
    expect(readableCorrelation(raw)).toEqual({ ...raw, ciMethod: 'bootstrap' })
  })

  it('prints a dash with the reason under four items and marks the figure under ten', () => {
    expect(coefficientCell(null, null, 2)).toBe('— · too few items (n=2)')
    // A figure the data would define is still withheld: "not defined" would blame the data.
    expect(coefficientCell(1, null, 3)).toBe('— · too few items (n=3)')
    expect(coefficientCell(0.8, [0.31, 0.97], 8)).toBe('0.800 [0.310, 0.970] · too few items (n=8)')
    expect(coefficientCell(0.8, [0.61, 0.91], 30)).toBe('0.800 [0.610, 0.910]')
    expect(coefficientCell(null, null, 30)).toBe('not defined')
  })

  it('item-level rows and JSON carry the mark for every coefficient', () => {
    const overall = readableCorrelation(itemCorrelation([0, 1], [0.5, 1], boot))
    const l: ItemLevel = {
      replicates: 300,
      definitions: {},
      items: [],
      series: [],
      correlations: [
        {
          source: 'annotator',
          runId: null,
          annotator: 'A1',
          label: 'A1',
          unitKind: 'sentence',
          score: 'share-supported',
          humanScore: 'share-supported',
          humanUnitKind: 'sentence',
          overall,
          summaryLevel: {
            items: 0,
            leftOut: 0,
            pearson: null,
            pearsonCi: null,
            spearman: null,
            spearmanCi: null,
            kendallTauB: null,
            kendallTauBCi: null,
            ciMethod: null,
          },
          systemLevel: { ...overall, n: 1, pearson: null, spearman: null, kendallTauB: null },
          byVariant: { summary: overall },
        },
      ],
    }
    expect(itemLevelRows(l)).toEqual([
      [
        'A1',
        'sentence',
        'share-supported',
        'all',
        'pooled',
        '2',
        '— · too few items (n=2)',
        '— · too few items (n=2)',
        '— · too few items (n=2)',
      ],
    ])
    const json = itemLevelJson(l)
    expect(json.min_items).toBe(4)
    expect(json.min_items_to_read).toBe(10)
    expect(json.correlations[0]).toMatchObject({
      n: 2,
      pearson: null,
      pearson_ci: null,
      ci_method: null,
      too_few_items: true,
    })
  })
})

describe('target-level correlations on small samples', () => {
  it('withholds every figure, AUROC too, under four pairs; keeps them from four on', () => {
    const three = correlate([0.9, 0.1, 0.7], [1, 0, 1])
    expect(three.auroc).toBe(1)
    expect(readableCorrelations(three)).toMatchObject({
      n: 3,
      pearson: null,
      spearman: null,
      kendallTauB: null,
      auroc: null,
    })
    const four = correlate([0.9, 0.1, 0.7, 0.2], [1, 0, 1, 0])
    expect(readableCorrelations(four)).toEqual(four)
  })
})
