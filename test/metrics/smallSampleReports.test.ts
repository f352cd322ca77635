import { describe, expect, it } from 'vitest'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { toJsonReport, toMarkdown } from '../../src/main/reports'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

describe('small-sample honesty in the figures, the JSON and the report', () => {
  it('four shared targets: no strength word, no [0.0–0.0%], and n beside every rate', () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer', 'poor_answer'], facts: 1 })
    fx.labelAll('ana', ['true', 'true', 'true', 'true'])
    fx.labelAll('bob', ['true', 'true', 'true', 'false'])
    fx.labelAll('cy', ['true', 'true', 'true', 'true'])
    const m = computeDatasetMetrics(fx.db, fx.datasetId)
    for (const h of m.humans) {
      expect(h.n).toBeGreaterThan(0)
      expect(h.n).toBeLessThanOrEqual(4)
      if (h.errorRateCi) expect(h.errorRateCi[1]).toBeGreaterThan(h.errorRateCi[0])
      expect(h.errorRateCiMethod).toBe('wilson')
    }
    const json = toJsonReport(m)
    expect(json.agreement.cohen_pairs.every((p) => p.too_few_shared)).toBe(true)
    expect(json.agreement.too_few_shared).toBe(true)
    expect(json.agreement.min_shared_targets).toBe(20)
    const md = toMarkdown(m)
    expect(md).toContain('too few shared targets (n=4)')
    expect(md).not.toContain('[0.0–0.0%]')
    expect(md).toContain('(Wilson)')
    fx.db.close()
  })

  it('a dominant class puts AC1 and PABAK beside κ with the prevalence note', () => {
    // 30 targets, two annotators: 28 both "true", one each way split → agreement 28/30.
    const fx = makeFixture(tmp(), { items: 30, variants: ['answer'], facts: 1 })
    const ana = Array.from({ length: 30 }, () => 'true')
    const bob = [...ana]
    ana[0] = 'false'
    bob[1] = 'false'
    fx.labelAll('ana', ana)
    fx.labelAll('bob', bob)
    const m = computeDatasetMetrics(fx.db, fx.datasetId)
    const a = m.agreement
    expect(a.percent).toBeCloseTo(28 / 30, 12)
    // Hand computation, FaaF schema (q = 3 labels): PABAK = (3·28/30 − 1)/2 = 0.9.
    expect(a.pabak).toBeCloseTo(0.9, 12)
    // π_true = 58/60, π_false = 2/60: p_e = (π_t(1−π_t) + π_f(1−π_f)) / 2.
    const pt = 58 / 60
    const pe = (pt * (1 - pt) + (1 - pt) * pt) / 2
    expect(a.ac1).toBeCloseTo((28 / 30 - pe) / (1 - pe), 12)
    expect(a.fleissKappa!).toBeLessThan(0)
    expect(a.dominantLabel).toBe('true')
    const json = toJsonReport(m)
    expect(json.agreement.prevalence_note).toMatch(/prevalence paradox/)
    expect(json.agreement.too_few_shared).toBe(false)
    expect(toMarkdown(m)).toMatch(/prevalence paradox/)
    fx.db.close()
  })
})
