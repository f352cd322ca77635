import { describe, expect, it } from 'vitest'
import type { ItemCorrelation } from '../../../src/main/metrics/items/correlate'
import { readableCorrelation } from '../../../src/main/metrics/items/readable'
import {
  evaluateResponses,
  type Response,
  tripletErrorRate,
} from '../../../src/main/metrics/refchecker/evaluate'
import { fisherInterval } from '../../../src/main/metrics/stats/fisher'
import {
  percentAgreementCi,
  proportionCi,
  widerCi,
  wilsonCi,
} from '../../../src/main/metrics/stats/smallSample'
import { wilsonInterval } from '../../../src/main/metrics/stats/wilson'
import type { ItemLevel } from '../../../src/shared/contract/itemLevel'
import { humanCostGap } from '../../../src/shared/humanCost'
import { itemLevelJson } from '../../../src/shared/itemLevelJson'
import { coefficientParts } from '../../../src/shared/itemLevelRows'

/*
 * Wilson's interval, checked by hand with z = 1.96:
 *   centre = (p + z²/2n) / (1 + z²/n),  half = z/(1 + z²/n) · √(p(1−p)/n + z²/4n²)
 * 1 of 20 → centre 0.12251, half 0.11363 → [0.0089, 0.2361]
 * 2 of 5  → centre 0.44345, half 0.32584 → [0.1176, 0.7693]
 * 9 of 12 → centre 0.68938, half 0.22169 → [0.4677, 0.9111]
 * 2 of 50 → centre 0.07282, half 0.06178 → [0.0110, 0.1346]
 * 1 of 25 → centre 0.10127, half 0.09417 → [0.0071, 0.1954]
 */
function near(iv: [number, number] | null, lo: number, hi: number) {
  expect(iv).not.toBeNull()
  expect(iv![0]).toBeCloseTo(lo, 4)
  expect(iv![1]).toBeCloseTo(hi, 4)
}

describe('Wilson intervals where the count is all there is', () => {
  it('matches the hand-worked values', () => {
    near(wilsonInterval(1, 20), 0.0089, 0.2361)
    near(wilsonCi(2, 5).ci, 0.1176, 0.7693)
    expect(wilsonCi(2, 5).method).toBe('wilson')
    expect(wilsonCi(0, 0)).toEqual({ ci: null, method: null })
  })

  it('percent agreement: Wilson over the shared targets, never past 0 or 1', () => {
    near(percentAgreementCi(0.75, 12), 0.4677, 0.9111)
    expect(percentAgreementCi(1, 3)![1]).toBe(1)
    expect(percentAgreementCi(1, 3)![0]).toBeLessThan(0.5)
    expect(percentAgreementCi(null, 3)).toBeNull()
    expect(percentAgreementCi(0.5, 0)).toBeNull()
  })
})

describe('a bootstrap never reads 0% where errors were seen', () => {
  it('a proportion whose bootstrap reaches 0 with 1 error of 20 takes Wilson', () => {
    const got = proportionCi(1, 20, () => [0, 0.15])
    expect(got.method).toBe('wilson')
    near(got.ci, 0.0089, 0.2361)
    // A bootstrap with a possible lower end stays.
    expect(proportionCi(5, 20, () => [0.1, 0.45])).toEqual({ ci: [0.1, 0.45], method: 'bootstrap' })
  })

  it('the wider of the clustered bootstrap and Wilson, the bootstrap only without an impossible end', () => {
    // Narrower than the count allows: Wilson's.
    expect(widerCi(2, 5, () => [0.3, 0.5])).toMatchObject({ method: 'wilson' })
    near(widerCi(2, 5, () => [0.3, 0.5]).ci, 0.1176, 0.7693)
    // Wider (errors clustered in few items): the bootstrap's.
    expect(widerCi(2, 5, () => [0.05, 0.9])).toEqual({ ci: [0.05, 0.9], method: 'bootstrap' })
    // Wider but at 0% with errors seen: Wilson's.
    expect(widerCi(2, 5, () => [0, 0.9]).method).toBe('wilson')
    // Every outcome alike: Wilson's, from 0.
    expect(widerCi(0, 5, () => [0, 0]).ci![0]).toBe(0)
    expect(widerCi(0, 0, () => null)).toEqual({ ci: null, method: null })
  })

  it('RefChecker: one response of 25 holds both contradictions; the intervals do not start at 0%', () => {
    const responses: Response[] = Array.from({ length: 25 }, (_, i) => ({
      key: i,
      variant: 'm',
      triplets: 2,
      labels: i === 0 ? ['contradiction', 'contradiction'] : ['entailment', 'entailment'],
    }))
    const f = evaluateResponses(responses, { seed: 1, replicates: 1000 })
    expect(f.micro!.contradiction).toBeCloseTo(2 / 50, 12)
    // Most resamples of 25 responses leave response 0 out ((24/25)^25 ≈ 36%): the cluster
    // bootstrap's lower end is 0, which the two contradictions rule out.
    expect(f.microCiMethod!.contradiction).toBe('wilson')
    near(f.microCi!.contradiction, 0.011, 0.1346)
    expect(f.hallucinationCiMethod).toBe('wilson')
    near(f.hallucinationCi, 0.0071, 0.1954)
    expect(f.abstentionCiMethod).toBe('wilson')
  })

  it('RefChecker: errors spread unevenly over four responses keep the wider cluster bootstrap', () => {
    const c = 'contradiction' as const
    const e = 'entailment' as const
    const responses: Response[] = [
      { key: 1, variant: 'm', triplets: 5, labels: [c, c, c, c, e] },
      { key: 2, variant: 'm', triplets: 5, labels: [c, e, e, e, e] },
      { key: 3, variant: 'm', triplets: 5, labels: [c, e, e, e, e] },
      { key: 4, variant: 'm', triplets: 5, labels: [e, e, e, e, e] },
    ]
    const f = evaluateResponses(responses, { seed: 1, replicates: 1000 })
    const wilson = wilsonInterval(6, 20)!
    const ci = f.microCi!.contradiction!
    // Wilson over 20 triplets treats them as independent; four responses are far fewer draws.
    expect(f.microCiMethod!.contradiction).toBe('bootstrap')
    expect(ci[1] - ci[0]).toBeGreaterThan(wilson[1] - wilson[0])
    expect(ci[0]).toBeGreaterThan(0)
  })

  it("a checker's triplet error rate: 1 wrong of 25 is not [0%, …]", () => {
    const pairs = Array.from({ length: 25 }, (_, i) => ({
      human: 'entailment' as const,
      judge: i === 0 ? ('neutral' as const) : ('entailment' as const),
      response: Math.floor(i / 5),
    }))
    const got = tripletErrorRate(pairs, { seed: 1 })
    expect(got.ciMethod).toBe('wilson')
    near(got.ci, 0.0071, 0.1954)
  })
})

describe("a checker's triplet error rate resamples responses, not triplets", () => {
  /**
   * 100 triplets, 5 per response; the checker gets every triplet of 6 responses wrong and every
   * other right: 30 wrong. Triplets drawn one by one would make 30 of 100 a tight count; drawn by
   * response, the count of wrong responses among 20 is what varies (30% ± about 10 points).
   */
  const pairsOf = (responseOf: (i: number) => number) =>
    Array.from({ length: 100 }, (_, i) => ({
      human: 'entailment' as const,
      judge: i < 30 ? ('contradiction' as const) : ('entailment' as const),
      response: responseOf(i),
    }))
  const width = (iv: [number, number] | null) => iv![1] - iv![0]
  const wilson = wilsonInterval(30, 100)!

  it('clustered errors widen the interval well past Wilson’s, the rate itself unchanged', () => {
    const clustered = tripletErrorRate(
      pairsOf((i) => Math.floor(i / 5)),
      { seed: 1, replicates: 2000 },
    )
    expect(clustered.rate).toBe(0.3)
    expect(clustered.n).toBe(100)
    expect(clustered.ciMethod).toBe('bootstrap')
    expect(width(clustered.ci)).toBeGreaterThan(1.6 * width(wilson))
    expect(clustered.ci![0]).toBeLessThan(0.3)
    expect(clustered.ci![1]).toBeGreaterThan(0.3)
  })

  it('the same verdicts, each triplet its own response, keep about Wilson’s width', () => {
    const apart = tripletErrorRate(
      pairsOf((i) => i),
      { seed: 1, replicates: 2000 },
    )
    expect(apart.rate).toBe(0.3)
    expect(width(apart.ci)).toBeLessThan(1.2 * width(wilson))
  })
})

describe('correlations at exactly ±1', () => {
  const base: ItemCorrelation = {
    n: 6,
    pearson: 1,
    pearsonCi: null,
    spearman: 1,
    spearmanCi: null,
    kendallTauB: -1,
    kendallTauBCi: null,
  }

  it("Fisher's z gives no interval at ±1, nor a float's breadth from it", () => {
    expect(fisherInterval('pearson', 1, 6)).toBeNull()
    expect(fisherInterval('pearson', 0.9999999999999998, 6)).toBeNull()
    expect(fisherInterval('pearson', 0.9, 6)).not.toBeNull()
  })

  it('over 4–19 items: no interval, and the row says why', () => {
    const r = readableCorrelation(base)
    expect(r).toMatchObject({ pearsonCi: null, spearmanCi: null, kendallTauBCi: null, ciMethod: null })
    expect(coefficientParts(r.pearson, r.pearsonCi, r.n, 'items', true)).toEqual({
      text: '1.000',
      note: 'interval undefined at ±1 · too few items (n=6)',
    })
  })

  it('from 20 items: the bootstrap collapsed to [1, 1] is dropped, the other coefficients keep theirs', () => {
    const r = readableCorrelation({
      ...base,
      n: 25,
      pearsonCi: [1, 1],
      spearman: 0.8,
      spearmanCi: [0.6, 0.9],
      kendallTauB: 0.7,
      kendallTauBCi: [0.5, 0.8],
    })
    expect(r.pearsonCi).toBeNull()
    expect(r.spearmanCi).toEqual([0.6, 0.9])
    expect(r.ciMethod).toBe('bootstrap')
    expect(coefficientParts(r.pearson, r.pearsonCi, 25, 'items', true).note).toBe(
      'interval undefined at ±1 over 25 items',
    )
    // Target-level correlations and AUROC have no intervals at all: no such mark.
    expect(coefficientParts(1, null, 25, 'targets').note).toBe('')
  })

  it('the JSON names the coefficients whose interval is undefined at ±1', () => {
    const overall = readableCorrelation(base)
    const level: ItemLevel = {
      replicates: 100,
      definitions: {},
      items: [],
      series: [],
      correlations: [
        {
          source: 'judge',
          runId: 1,
          annotator: null,
          label: 'j',
          unitKind: 'fact',
          score: 'share-supported',
          humanScore: 'share-supported',
          humanUnitKind: 'fact',
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
          byVariant: {},
        },
      ],
    }
    const json = itemLevelJson(level)
    expect(json.correlations[0]).toMatchObject({
      pearson: 1,
      pearson_ci: null,
      ci_undefined_at_bound: ['pearson', 'spearman', 'kendall_tau_b'],
    })
  })
})

describe('a person without a cost says why', () => {
  it('no time recorded, or no rate', () => {
    expect(humanCostGap({ cost: null, activeSeconds: 0 })).toBe('no time recorded')
    expect(humanCostGap({ cost: null })).toBe('no time recorded')
    expect(humanCostGap({ cost: null, activeSeconds: 120 })).toBe('no rate')
    expect(humanCostGap({ cost: 1.5, activeSeconds: 120 })).toBeNull()
  })
})
