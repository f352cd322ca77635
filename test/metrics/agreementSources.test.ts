import { describe, expect, it } from 'vitest'
import { agreementForDataset } from '../../src/main/metrics/agreementService'
import { datasetAgreement } from '../../src/main/metrics/datasetAgreement'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { numericSchema } from '../../src/shared/labelSchemas'
import { toJsonReport } from '../../src/shared/metricsJson'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

/** The release's labels are kept under a source, as an import of WikiEvalFacts keeps them. */
function asSource(fx: ReturnType<typeof makeFixture>, name: string) {
  fx.db.prepare("UPDATE annotators SET kind = 'source' WHERE name = ?").run(name)
}

describe('agreement with the dataset’s own reference labels (a source)', () => {
  it('counts people only in the overall figures and shows the source pairs apart', () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer', 'poor_answer'], facts: 1 })
    // People share targets 0 and 1 only; the release labelled all four.
    fx.labelAll('ana', ['true', 'false', 'true', null])
    fx.labelAll('bob', ['true', 'true', null, null])
    fx.labelAll('wikievalfacts', ['true', 'false', 'true', 'false'])
    asSource(fx, 'wikievalfacts')
    for (const figures of [agreementForDataset(fx.db, fx.datasetId), datasetAgreement(fx.db, fx.datasetId)]) {
      expect(figures.n).toBe(2)
      expect(figures.percent).toBe(0.5)
      expect(figures.cohenPairs.map((p) => `${p.a}·${p.b}`)).toEqual(['ana·bob'])
      expect(figures.sourcePairs.map((p) => [`${p.a}·${p.b}`, p.n])).toEqual([
        ['ana·wikievalfacts', 3],
        ['bob·wikievalfacts', 2],
      ])
      // A variant only the release labelled twice has no people's figure of its own beyond theirs.
      expect(Object.values(figures.byVariant).reduce((n, v) => n + v.n, 0)).toBe(2)
    }
  })

  it('without the source the same labels give the same figures as before (it only moves pairs)', () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer', 'poor_answer'], facts: 1 })
    fx.labelAll('ana', ['true', 'false', 'true', null])
    fx.labelAll('bob', ['true', 'true', null, null])
    fx.labelAll('wikievalfacts', ['true', 'false', 'true', 'false'])
    // A person named like that is a person: counted.
    expect(agreementForDataset(fx.db, fx.datasetId).n).toBe(3)
    expect(agreementForDataset(fx.db, fx.datasetId).sourcePairs).toEqual([])
  })

  it('leaves the source out of a numeric dataset’s figures too', () => {
    const fx = makeFixture(tmp(), {
      items: 3,
      variants: ['s'],
      facts: 1,
      schema: numericSchema('score', 1, 5, 3),
    })
    fx.labelAll('ana', ['4', '2', '5'])
    fx.labelAll('bob', ['4', null, null])
    fx.labelAll('release', ['4', '2', '5'])
    asSource(fx, 'release')
    for (const figures of [agreementForDataset(fx.db, fx.datasetId), datasetAgreement(fx.db, fx.datasetId)]) {
      expect(figures.n).toBe(1)
      expect(figures.sourcePairs.map((p) => p.n)).toEqual([3, 1])
    }
  })

  it('puts the source pairs apart in the metrics JSON', () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer', 'poor_answer'], facts: 1 })
    fx.labelAll('ana', ['true', 'false', 'true', null])
    fx.labelAll('bob', ['true', 'true', null, null])
    fx.labelAll('wikievalfacts', ['true', 'false', 'true', 'false'])
    asSource(fx, 'wikievalfacts')
    const json = toJsonReport(computeDatasetMetrics(fx.db, fx.datasetId))
    expect(json.agreement.n).toBe(2)
    expect(json.agreement.cohen_pairs.map((p) => p.b)).toEqual(['bob'])
    expect(json.agreement.source_pairs.map((p) => p.a)).toEqual(['ana', 'bob'])
  })
})
