import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ITEM_REPLICATES_MIN, replicatesFor } from '../../src/main/metrics/items/build'
import { itemCorrelation } from '../../src/main/metrics/items/correlate'
import { itemScores, responseLabel, type UnitVerdict } from '../../src/main/metrics/items/scores'
import { NONE, SUPPORTED, UNSUPPORTED } from '../../src/main/metrics/stats/binary'

const S = SUPPORTED
const U = UNSUPPORTED
const row = (
  response: number,
  bin: number,
  verdict: string | null = null,
  num = Number.NaN,
): UnitVerdict => ({
  response,
  bin,
  num,
  verdict,
})

describe('item scores, worked by hand', () => {
  it('sentences and facts: the share supported, units without a verdict left out', () => {
    // Response 1: 2 of 3 judged sentences supported (one unlabelled); response 2: 0 of 2.
    const s = itemScores('share-supported', [
      row(1, S),
      row(1, U),
      row(1, S),
      row(1, NONE),
      row(2, U),
      row(2, U),
    ])
    expect(s.get(1)).toEqual({ score: 2 / 3, units: 3, responseLabel: null })
    expect(s.get(2)?.score).toBe(0)
  })

  it('DCR: (Σ s − α) / (n − β) rescaled to [0, 1]', () => {
    // marks +1 +1 −1 +1: Σ = 2, n = 4; α = 1, β = 1 → Z = 1/3 → (Z + 1) / 2 = 2/3.
    const rows = [row(7, S), row(7, S), row(7, U), row(7, S)]
    expect(itemScores('dcr', rows).get(7)?.score).toBeCloseTo(0.75, 12)
    expect(itemScores('dcr', rows, { alpha: 1, beta: 1 }).get(7)?.score).toBeCloseTo(2 / 3, 12)
  })

  it('triplets: the entailment share and RefChecker’s response label', () => {
    const s = itemScores('entailment-share', [
      row(1, S, 'entailment'),
      row(1, U, 'neutral'),
      row(1, S, 'entailment'),
      row(2, S, 'entailment'),
      row(3, U, 'neutral'),
      row(3, U, 'contradiction'),
    ])
    expect(s.get(1)).toEqual({ score: 2 / 3, units: 3, responseLabel: 'neutral' })
    expect(s.get(2)).toEqual({ score: 1, units: 1, responseLabel: 'entailment' })
    expect(s.get(3)).toEqual({ score: 0, units: 2, responseLabel: 'contradiction' })
    expect(responseLabel([])).toBeNull()
  })

  it('whole responses: the verdict as a number', () => {
    const s = itemScores('verdict', [
      row(1, S, 'pass', 2),
      row(2, U, 'partially_pass', 1),
      row(3, NONE, '4', 4),
    ])
    expect([1, 2, 3].map((r) => s.get(r)?.score)).toEqual([2, 1, 4])
  })
})

describe('item-level correlation', () => {
  const boot = { seed: 7, replicates: 300 }

  it('matches hand values: Pearson 0.8, Spearman 0.8, Kendall τ-b 0.6', () => {
    // x = 1..5, y = 2 1 4 3 5. Deviations give Σxy = 8, Σx² = Σy² = 10 → r = 0.8; the ranks are the
    // values, so Spearman is 0.8 too; 8 concordant and 2 discordant pairs of 10 → τ-b = 0.6.
    const c = itemCorrelation([1, 2, 3, 4, 5], [2, 1, 4, 3, 5], boot)
    expect(c.n).toBe(5)
    expect(c.pearson).toBeCloseTo(0.8, 12)
    expect(c.spearman).toBeCloseTo(0.8, 12)
    expect(c.kendallTauB).toBeCloseTo(0.6, 12)
    for (const iv of [c.pearsonCi, c.spearmanCi, c.kendallTauBCi]) {
      expect(iv).not.toBeNull()
      expect(iv![0]).toBeLessThanOrEqual(iv![1])
      expect(iv![0]).toBeGreaterThanOrEqual(-1)
      expect(iv![1]).toBeLessThanOrEqual(1)
    }
  })

  it('is not defined without variation, and then has no interval', () => {
    const c = itemCorrelation([0.5, 0.5, 0.5], [0, 1, 0.5], boot)
    expect(c).toMatchObject({ pearson: null, pearsonCi: null, kendallTauB: null, kendallTauBCi: null })
  })

  const pairs = fc.array(
    fc.tuple(
      fc.integer({ min: 0, max: 6 }).map((x) => x / 6),
      fc.integer({ min: 0, max: 4 }).map((x) => x / 4),
    ),
    { minLength: 3, maxLength: 30 },
  )

  it('does not depend on the order of the items (intervals included)', () => {
    fc.assert(
      fc.property(pairs, fc.integer(), (ps, salt) => {
        const shuffled = ps
          .map((p, i) => ({ p, k: Math.sin(i * 12.9898 + salt) }))
          .sort((a, b) => a.k - b.k)
          .map((x) => x.p)
        const a = itemCorrelation(
          ps.map((p) => p[0]),
          ps.map((p) => p[1]),
          { seed: 3, replicates: 50 },
        )
        const b = itemCorrelation(
          shuffled.map((p) => p[0]),
          shuffled.map((p) => p[1]),
          { seed: 3, replicates: 50 },
        )
        expect(b).toEqual(a)
      }),
      { numRuns: 60 },
    )
  })

  it('Kendall τ-b equals a brute-force count over all pairs', () => {
    const brute = (x: number[], y: number[]) => {
      let c = 0
      let d = 0
      let tx = 0
      let ty = 0
      for (let i = 0; i < x.length; i++)
        for (let j = i + 1; j < x.length; j++) {
          const dx = Math.sign(x[i]! - x[j]!)
          const dy = Math.sign(y[i]! - y[j]!)
          if (dx === 0 && dy === 0) continue
          if (dx === 0) tx++
          else if (dy === 0) ty++
          else if (dx === dy) c++
          else d++
        }
      const denom = Math.sqrt((c + d + tx) * (c + d + ty))
      return denom === 0 ? null : (c - d) / denom
    }
    fc.assert(
      fc.property(pairs, (ps) => {
        const x = ps.map((p) => p[0])
        const y = ps.map((p) => p[1])
        const got = itemCorrelation(x, y, { seed: 1, replicates: 0 }).kendallTauB
        const want = brute(x, y)
        if (want === null) expect(got).toBeNull()
        else expect(got).toBeCloseTo(want, 10)
      }),
      { numRuns: 100 },
    )
  })
})

describe('item-level bootstrap size', () => {
  it('keeps the asked count on small datasets and lowers it, not below the floor, on very large ones', () => {
    expect(replicatesFor(500, 2_000)).toBe(500)
    expect(replicatesFor(500, 50_000)).toBe(200)
    expect(replicatesFor(500, 10_000_000)).toBe(ITEM_REPLICATES_MIN)
    expect(replicatesFor(300, 0)).toBe(300)
  })
})
