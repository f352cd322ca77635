import { describe, expect, it } from 'vitest'
import { agreementForDataset } from '../../src/main/metrics/agreementService'
import { numericSchema } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

describe('agreementForDataset', () => {
  it('computes agreement over current labels, per pair and per variant', () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer', 'poor_answer'], facts: 1 })
    // Targets: 0 q0/answer, 1 q0/poor, 2 q1/answer, 3 q1/poor (creation order follows facts × candidates).
    const variants = fx.targets.map((t) => t.variant)
    const ana = ['true', 'false', 'true', 'false']
    const bob = ['true', 'false', 'false', 'false']
    fx.labelAll('ana', ana)
    fx.labelAll('bob', bob)
    fx.label('cy', 0, 'true')
    const result = agreementForDataset(fx.db, fx.datasetId)
    expect(result.n).toBe(4)
    // Target 0 has three agreeing labels; targets 1, 3 agree, target 2 splits: (1 + 1 + 0 + 1) / 4.
    expect(result.percent).toBeCloseTo(0.75, 12)
    // Wilson over the 4 shared targets, 3 agreeing: p = 0.75, z = 1.96, centre
    // (p + z²/8) / (1 + z²/4) = 0.6275, half z/(1 + z²/4) · √(p(1−p)/4 + z²/64) = 0.3269.
    expect(result.percentCi![0]).toBeCloseTo(0.3006, 4)
    expect(result.percentCi![1]).toBeCloseTo(0.9544, 4)
    const ab = result.cohenPairs.find((p) => p.a === 'ana' && p.b === 'bob')
    expect(ab?.n).toBe(4)
    // po 0.75; ana t/f 2/2, bob t/f 1/3 → pe = 0.5·0.25 + 0.5·0.75 = 0.5 → κ 0.5
    expect(ab?.kappa).toBeCloseTo(0.5, 12)
    expect(result.cohenPairs.find((p) => p.b === 'cy')?.n).toBe(1)
    const poor = variants.map((v, i) => (v === 'poor_answer' ? i : -1)).filter((i) => i >= 0)
    expect(result.byVariant.poor_answer?.n).toBe(poor.length)
    expect(result.byVariant.poor_answer?.percent).toBe(1)
    expect(agreementForDataset(fx.db, fx.datasetId, { variant: 'poor_answer' }).percent).toBe(1)
  })

  it('uses interval α for a numeric schema and returns "not defined" without overlap', () => {
    const fx = makeFixture(tmp(), {
      items: 3,
      variants: ['s'],
      facts: 1,
      schema: numericSchema('score', 1, 5, 3),
    })
    const empty = agreementForDataset(fx.db, fx.datasetId)
    expect(empty).toMatchObject({
      n: 0,
      percent: null,
      percentCi: null,
      fleissKappa: null,
      krippendorffAlpha: null,
    })
    fx.labelAll('ana', ['1', '3', '5'])
    fx.labelAll('bob', ['2', '3', '5'])
    const r = agreementForDataset(fx.db, fx.datasetId)
    // A near miss (1 vs 2) keeps interval α high while nominal agreement is only 2/3.
    expect(r.percent).toBeCloseTo(2 / 3, 12)
    expect(r.krippendorffAlpha).toBeGreaterThan(0.9)
  })
})
