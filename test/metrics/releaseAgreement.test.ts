import { describe, expect, it } from 'vitest'
import { agreementForDataset } from '../../src/main/metrics/agreementService'
import { datasetAgreement } from '../../src/main/metrics/datasetAgreement'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { toMarkdown } from '../../src/main/reports'
import type { AgreementFigures } from '../../src/shared/contract/agreement'
import { numericSchema } from '../../src/shared/labelSchemas'
import { toJsonReport } from '../../src/shared/metricsJson'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

type Fixture = ReturnType<typeof makeFixture>

function asSources(fx: Fixture, ...names: string[]) {
  for (const name of names) fx.db.prepare("UPDATE annotators SET kind = 'source' WHERE name = ?").run(name)
}

/** Both agreement passes: the row-by-row one (filters, numeric) and the label columns' one. */
function bothPasses(fx: Fixture) {
  return [agreementForDataset(fx.db, fx.datasetId), datasetAgreement(fx.db, fx.datasetId)]
}

/** The figures of one scope, without what only a summary carries. */
function scope(f: AgreementFigures & { byVariant: Record<string, AgreementFigures> }) {
  const { n, percent, percentCi, fleissKappa, krippendorffAlpha, ac1, pabak, dominantLabel, dominantShare } =
    f
  return {
    n,
    percent,
    percentCi,
    fleissKappa,
    krippendorffAlpha,
    ac1,
    pabak,
    dominantLabel,
    dominantShare,
    byVariant: f.byVariant,
  }
}

/** Three workers of a release (QAGS-like): some targets shared by all, some by two. */
function workers(fx: Fixture) {
  fx.labelAll('w1', ['true', 'false', 'true', 'true', 'false', null])
  fx.labelAll('w2', ['true', 'false', 'false', 'true', null, 'true'])
  fx.labelAll('w3', ['true', 'true', 'true', null, 'false', 'true'])
}

describe('the release’s own labels (sources) apart from people', () => {
  it('says who each pair is: the person first against a source, then two of the release’s annotators', () => {
    const fx = makeFixture(tmp(), { items: 1, variants: ['answer', 'poor_answer'], facts: 2 })
    fx.labelAll('ana', ['true', 'false', 'true', 'false'])
    fx.labelAll('zoe', ['true', 'true', 'true', 'false'])
    fx.labelAll('release', ['true', 'false', 'false', 'false'])
    fx.labelAll('w2', ['true', 'false', 'true', null])
    asSources(fx, 'release', 'w2')
    for (const figures of bothPasses(fx)) {
      expect(figures.cohenPairs.map((p) => [p.a, p.b, p.kind])).toEqual([['ana', 'zoe', 'people']])
      // "zoe · release", never "release · zoe": a reader sees the person, then the release's labels.
      expect(figures.sourcePairs.map((p) => [p.a, p.b, p.kind, p.n])).toEqual([
        ['ana', 'release', 'person-source', 4],
        ['ana', 'w2', 'person-source', 3],
        ['zoe', 'release', 'person-source', 4],
        ['zoe', 'w2', 'person-source', 3],
        ['release', 'w2', 'sources', 3],
      ])
    }
    const json = toJsonReport(computeDatasetMetrics(fx.db, fx.datasetId))
    expect(json.agreement.source_pairs.map((p) => `${p.a}·${p.b}:${p.kind}`)).toEqual([
      'ana·release:person-source',
      'ana·w2:person-source',
      'zoe·release:person-source',
      'zoe·w2:person-source',
      'release·w2:sources',
    ])
    expect(json.agreement.cohen_pairs.map((p) => p.kind)).toEqual(['people'])
  })

  it('gives a release with only its own annotators their agreement among themselves, as people’s would read', () => {
    const release = makeFixture(tmp(), { items: 1, variants: ['answer', 'poor_answer'], facts: 3 })
    workers(release)
    asSources(release, 'w1', 'w2', 'w3')
    const asPeople = makeFixture(tmp(), { items: 1, variants: ['answer', 'poor_answer'], facts: 3 })
    workers(asPeople)
    const people = scope(agreementForDataset(asPeople.db, asPeople.datasetId))
    expect(people.n).toBe(6)
    for (const figures of bothPasses(release)) {
      // No person labelled: no people's figure, and the workers are not slipped into it.
      expect(figures.n).toBe(0)
      expect(figures.fleissKappa).toBeNull()
      expect(figures.amongSources?.names).toEqual(['w1', 'w2', 'w3'])
      expect(scope(figures.amongSources!)).toEqual(people)
    }
    const json = toJsonReport(computeDatasetMetrics(release.db, release.datasetId))
    expect(json.agreement.n).toBe(0)
    expect(json.agreement.among_sources).toMatchObject({
      annotators: ['w1', 'w2', 'w3'],
      n: 6,
      fleiss_kappa: people.fleissKappa,
      krippendorff_alpha: people.krippendorffAlpha,
      percent_ci_method: 'wilson',
      too_few_shared: true,
    })
    const md = toMarkdown(computeDatasetMetrics(release.db, release.datasetId))
    expect(md).toContain('No target has labels from two people')
    const among = md.slice(md.indexOf("## Agreement among the release's annotators"))
    expect(among).toContain("The dataset's own reference labels (w1, w2, w3)")
    expect(among).toMatch(/\| all \| 6 \| .* · too few shared targets \(n=6\) \|/)
    expect(md).toContain("## The release's annotators against each other")
    expect(md).not.toContain("## Each person against the release's labels")
  })

  it('keeps people’s labels out of the release’s figure and the release’s out of the people’s', () => {
    const fx = makeFixture(tmp(), { items: 1, variants: ['answer', 'poor_answer'], facts: 3 })
    workers(fx)
    fx.labelAll('ana', ['false', 'true', 'false', 'false', 'true', 'false'])
    fx.labelAll('bob', ['false', 'true', 'false', 'false', 'true', 'false'])
    asSources(fx, 'w1', 'w2', 'w3')
    const only = makeFixture(tmp(), { items: 1, variants: ['answer', 'poor_answer'], facts: 3 })
    workers(only)
    asSources(only, 'w1', 'w2', 'w3')
    const release = scope(agreementForDataset(only.db, only.datasetId).amongSources!)
    for (const figures of bothPasses(fx)) {
      // Ana and Bob always agree; the workers do not, and neither moves the other's figure.
      expect(figures.percent).toBe(1)
      expect(figures.n).toBe(6)
      expect(scope(figures.amongSources!)).toEqual(release)
    }
  })

  it('has no release figure with a single source, and one with interval α for numeric scores', () => {
    const one = makeFixture(tmp(), { items: 2, variants: ['answer'], facts: 1 })
    one.labelAll('ana', ['true', 'false'])
    one.labelAll('wikievalfacts', ['true', 'true'])
    asSources(one, 'wikievalfacts')
    for (const figures of bothPasses(one)) expect(figures.amongSources).toBeNull()
    expect(toJsonReport(computeDatasetMetrics(one.db, one.datasetId)).agreement.among_sources).toBeNull()

    const experts = makeFixture(tmp(), {
      items: 3,
      variants: ['s'],
      facts: 1,
      schema: numericSchema('score', 1, 5, 3),
    })
    experts.labelAll('expert 1', ['4', '2', '5'])
    experts.labelAll('expert 2', ['5', '2', '4'])
    experts.labelAll('expert 3', ['4', '1', '5'])
    asSources(experts, 'expert 1', 'expert 2', 'expert 3')
    const asPeople = makeFixture(tmp(), {
      items: 3,
      variants: ['s'],
      facts: 1,
      schema: numericSchema('score', 1, 5, 3),
    })
    asPeople.labelAll('expert 1', ['4', '2', '5'])
    asPeople.labelAll('expert 2', ['5', '2', '4'])
    asPeople.labelAll('expert 3', ['4', '1', '5'])
    const people = scope(agreementForDataset(asPeople.db, asPeople.datasetId))
    for (const figures of bothPasses(experts)) {
      expect(figures.n).toBe(0)
      expect(scope(figures.amongSources!)).toEqual(people)
      // A 4 against a 5 is a near miss: interval α, well above nominal agreement.
      expect(figures.amongSources!.krippendorffAlpha!).toBeGreaterThan(0.5)
    }
  })
})
