import { describe, expect, it } from 'vitest'
import { resolveGold, setGold as storeGold } from '../../src/main/labels/gold'
import { agreementForDataset } from '../../src/main/metrics/agreementService'
import { loadTargets } from '../../src/main/metrics/load'
import { narrowing } from '../../src/main/metrics/narrowing'
import { disagreements, labelNext } from '../../src/main/metrics/queries'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { goldCodes } from '../../src/main/metrics/stats/labelColumns'
import { toJsonReport } from '../../src/main/reports'
import { getDataset } from '../../src/main/store/repos/datasets'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

/**
 * 4 items × 2 variants × 1 fact = 8 targets, in order
 * q0/answer q0/poor q1/answer q1/poor q2/answer q2/poor q3/answer q3/poor.
 */
function seeded() {
  const fx = makeFixture(tmp(), { items: 4, variants: ['answer', 'poor_answer'], facts: 1 })
  const gold = ['true', 'false', 'true', 'false', 'true', 'false', 'true', 'not_clear']
  fx.labelAll('ana', gold)
  fx.labelAll(
    'bob',
    gold.map((g, i) => (i === 7 ? 'true' : g)),
  )
  fx.labelAll(
    'cy',
    gold.map((g, i) => (i === 0 ? 'false' : g)),
  )
  // Judge A: wrong on target 1 (says true where gold is false); N/A on 6; transport error on 7.
  const a = fx.run('model-a', ['true', 'true', 'true', 'false', 'true', 'false', 'NA', 'ERR'], {
    calls: [
      { promptTokens: 100, completionTokens: 10, cost: 0.01, latencyMs: 200 },
      { promptTokens: 100, completionTokens: 10, cost: 0.02, latencyMs: 400 },
    ],
  })
  // Judge B: wrong on 0 and 2 (both answer variant), everything judged.
  const b = fx.run('model-b', ['false', 'false', 'false', 'false', 'true', 'false', 'true', 'false'])
  return { fx, a, b }
}

describe('computeDatasetMetrics', () => {
  it('scores each judge against gold with N/A and errors reported beside', () => {
    const { fx, a, b } = seeded()
    const m = computeDatasetMetrics(fx.db, fx.datasetId)
    expect(m.targets).toBe(8)
    expect(m.goldTargets).toBe(8)
    const ja = m.judges.find((j) => j.runId === a)!
    expect(ja).toMatchObject({
      n: 6,
      judged: 8,
      na: 1,
      errors: 1,
      calls: 2,
      promptTokens: 200,
      completionTokens: 20,
    })
    expect(ja.errorRate).toBeCloseTo(1 / 6, 12)
    expect(ja.naRate).toBeCloseTo(1 / 8, 12)
    expect(ja.cost).toBeCloseTo(0.03, 12)
    // Per 1,000 facts given a verdict: $0.03 / (8 − 1 N/A − 1 error) × 1000 = $5, not $0.03 / 8.
    expect(ja.costPer1000).toBeCloseTo(5, 12)
    expect(ja.costUnit).toBe('facts')
    expect(toJsonReport(m).judges.find((j) => j.run === a)).toMatchObject({ cost_per_1000_of: 'facts' })
    expect(ja.wallSeconds).toBeCloseTo(10, 3)
    // unsupported: gold 1,3,5 (of the judged six); A says unsupported on 3,5 → P 1, R 2/3, F1 0.8
    expect(ja.f1Unsupported).toBeCloseTo(0.8, 12)
    expect(ja.byVariant.answer).toMatchObject({ n: 3, errorRate: 0, na: 1 })
    expect(ja.byVariant.poor_answer?.errorRate).toBeCloseTo(1 / 3, 12)
    // gold rows, judge columns in the FaaF label space: gold not_clear on 7 was a transport error, not counted
    expect(ja.confusion.labels).toEqual(['true', 'false', 'not_clear'])
    expect(ja.confusion.full).toEqual([
      [3, 0, 0],
      [1, 2, 0],
      [0, 0, 0],
    ])
    expect(ja.confusion.binary).toEqual([
      [3, 0],
      [1, 2],
    ])
    const jb = m.judges.find((j) => j.runId === b)!
    expect(jb.errorRate).toBeCloseTo(2 / 8, 12)
    expect(jb.byVariant.answer?.errorRate).toBeCloseTo(0.5, 12)
    const mc = m.mcnemar[0]!
    // Both judged 0–5: A right on 0 and 2 where B is wrong; B right on 1 where A is wrong.
    expect(mc).toMatchObject({ a, b, n: 6, aOnly: 2, bOnly: 1 })
  })

  it('scores every annotator against the gold of the others', () => {
    const { fx } = seeded()
    const m = computeDatasetMetrics(fx.db, fx.datasetId)
    const bob = m.humans.find((h) => h.annotator === 'bob')!
    // Without bob, target 0 is a tie (ana true, cy false): no gold there. On target 7 ana and cy
    // both say not_clear, so bob's "true" is his one error out of 7.
    expect(bob.n).toBe(7)
    expect(bob.errorRate).toBeCloseTo(1 / 7, 12)
    const ana = m.humans.find((h) => h.annotator === 'ana')!
    // Without ana, target 0 (bob true, cy false) and target 7 (bob true, cy not_clear) are ties: no gold.
    expect(ana.n).toBe(6)
    expect(ana.errorRate).toBe(0)
  })

  it('gives the same intervals for the same seed and the documented JSON shape', () => {
    const { fx } = seeded()
    const one = computeDatasetMetrics(fx.db, fx.datasetId, { seed: 5 })
    expect(computeDatasetMetrics(fx.db, fx.datasetId, { seed: 5 })).toEqual(one)
    const json = toJsonReport(one)
    expect(Object.keys(json.agreement)).toEqual(
      expect.arrayContaining(['percent', 'cohen_pairs', 'fleiss_kappa', 'krippendorff_alpha']),
    )
    expect(Object.keys(json.judges[0]!)).toEqual(
      expect.arrayContaining([
        'run',
        'provider',
        'model',
        'method',
        'n',
        'na',
        'errors',
        'error_rate',
        'error_rate_ci',
        'accuracy',
        'f1_unsupported',
        'f1_ci',
        'kappa',
        'confusion',
        'by_variant',
        'calls',
        'prompt_tokens',
        'completion_tokens',
        'cost',
      ]),
    )
    expect(Object.keys(json.humans[0]!)).toEqual(
      expect.arrayContaining(['annotator', 'n', 'error_rate', 'kappa']),
    )
    expect(Array.isArray(json.correlations)).toBe(true)
  })

  it('reports "not defined" instead of NaN when nothing is labelled', () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer'], facts: 1 })
    fx.run('m', ['NA', 'NA'])
    const m = computeDatasetMetrics(fx.db, fx.datasetId)
    expect(m.judges[0]).toMatchObject({
      n: 0,
      na: 2,
      errorRate: null,
      errorRateCi: null,
      f1Unsupported: null,
      kappa: null,
    })
    expect(JSON.stringify(toJsonReport(m))).not.toMatch(/NaN/)
  })

  it('shows the spread of repeated runs of one config', () => {
    const fx = makeFixture(tmp(), { items: 4, variants: ['answer'], facts: 1 })
    fx.labelAll('ana', ['true', 'true', 'false', 'false'])
    fx.run('m', ['true', 'true', 'false', 'false'], { repeatIndex: 0 })
    fx.run('m', ['true', 'false', 'false', 'false'], { repeatIndex: 1 })
    fx.run('other', ['true', 'true', 'true', 'true'])
    const s = computeDatasetMetrics(fx.db, fx.datasetId).spreads
    expect(s).toHaveLength(1)
    expect(s[0]!.errorRate).toMatchObject({ runs: 2, min: 0, max: 0.25 })
    expect(s[0]!.errorRate!.mean).toBeCloseTo(0.125, 12)
  })

  it('correlates numeric scores with gold and puts disputed targets first in the queue', () => {
    const fx = makeFixture(tmp(), { items: 3, variants: ['answer'], facts: 2 })
    fx.labelAll('ana', ['true', 'true', 'false', 'false'])
    const a = fx.run('m', ['true', 'true', 'false', 'false', 'true', 'true'], {
      scores: [0.9, 0.7, 0.2, 0.1, 0.8, 0.9],
    })
    fx.run('n', ['true', 'false', 'false', 'false', 'true', 'false'])
    const m = computeDatasetMetrics(fx.db, fx.datasetId)
    const c = m.correlations.find((r) => r.runId === a)!
    expect(c).toMatchObject({ level: 'target', against: 'binary', n: 4, auroc: 1 })
    const queue = labelNext(fx.db, fx.datasetId)
    // Targets 4 and 5 have no gold; the judges split on 5 and agree on 4.
    expect(queue.map((q) => q.targetId)).toEqual([fx.targets[5]!.id, fx.targets[4]!.id])
    expect(queue[0]!.disagreement).toBe(1)
    const d = disagreements(fx.db, fx.datasetId)
    expect(d.total).toBe(1)
    expect(d.rows[0]).toMatchObject({ targetId: fx.targets[1]!.id, gold: 'true', verdict: 'false' })
    const series = narrowing(fx.db, fx.datasetId)
    expect(series).toHaveLength(2)
    expect(series[0]!.points.at(-1)!.n).toBe(4)
  })
})

describe('disagreements', () => {
  it('lists them by target then judge, counts past the limit, and filters by judge and variant', () => {
    const { fx, a, b } = seeded()
    const at = (k: number) => fx.targets[k]!.id
    const all = disagreements(fx.db, fx.datasetId, { limit: 2 })
    expect(all.total).toBe(3)
    expect(all.rows.map((r) => [r.targetId, r.runId])).toEqual([
      [at(0), b],
      [at(1), a],
    ])
    expect(disagreements(fx.db, fx.datasetId, { runId: b }).rows.map((r) => r.targetId)).toEqual([
      at(0),
      at(2),
    ])
    const answer = disagreements(fx.db, fx.datasetId, { variant: 'answer' })
    expect(answer.total).toBe(2)
    expect(answer.rows.every((r) => r.variant === 'answer' && r.runId === b)).toBe(true)
    expect(disagreements(fx.db, fx.datasetId, { variant: 'nope' })).toEqual({ total: 0, rows: [], hidden: 0 })
  })
})

describe('gold from the label pass', () => {
  it('agrees with resolveGold, with and without each annotator', () => {
    const { fx } = seeded()
    storeGold(fx.db, { targetId: fx.targets[0]!.id, verdict: 'not_clear', source: 'adjudicated' })
    const t = loadTargets(fx.db, fx.datasetId, getDataset(fx.db, fx.datasetId).labelSchema)
    const annotators = fx.db.prepare('SELECT id FROM annotators').pluck().all() as number[]
    for (const exclude of [undefined, ...annotators]) {
      const expected = resolveGold(fx.db, fx.datasetId, exclude)
      const codes = goldCodes(t.human, t.stored, exclude ?? -1)
      const got = new Map<number, string>()
      codes.forEach((c, i) => {
        if (c >= 0) got.set(t.ids[i]!, t.human.values[c]!)
      })
      expect(got).toEqual(new Map([...expected].map(([id, g]) => [id, g.verdict])))
    }
  })
})

describe('agreement in the metrics', () => {
  it('equals what the Agreement view computes', () => {
    const { fx } = seeded()
    fx.labelAll('Zed', ['true', 'true', 'true', 'true', 'true', 'true', 'true', 'true'])
    expect(computeDatasetMetrics(fx.db, fx.datasetId).agreement).toEqual(
      agreementForDataset(fx.db, fx.datasetId),
    )
  })
})

describe('reuse between calls', () => {
  it('recomputes after a label changes, and not before', () => {
    const { fx, a } = seeded()
    const before = computeDatasetMetrics(fx.db, fx.datasetId)
    expect(computeDatasetMetrics(fx.db, fx.datasetId)).toBe(before)
    // Judge A said "true" on target 1; once every annotator agrees, A is right there.
    fx.label('ana', 1, 'true')
    fx.label('bob', 1, 'true')
    fx.label('cy', 1, 'true')
    const after = computeDatasetMetrics(fx.db, fx.datasetId)
    expect(after).not.toBe(before)
    expect(after.judges.find((j) => j.runId === a)!.errorRate).toBe(0)
  })
})
