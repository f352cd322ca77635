import { describe, expect, it } from 'vitest'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { toJsonReport, toMarkdown } from '../../src/main/reports'
import { costErrorChart, costPoints } from '../../src/shared/charts'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()
const GOLD = ['true', 'false', 'true', 'false', 'true', 'true', 'false', 'false']
const call = (cost: number) => [{ promptTokens: 100, completionTokens: 10, cost, latencyMs: 100 }]

describe('the cost axis compares like with like', () => {
  it('places judges by cost per 1,000 judged targets, so a run over few targets is not the cheapest by its small total', () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer', 'poor'], facts: 2 })
    fx.labelAll('ana', GOLD)
    // "all" judged all 8 targets, every one right, for $0.008: $1 per 1,000.
    const all = fx.run('all', [...GOLD], { calls: call(0.008) })
    // "few" judged 2 targets, one wrong, for $0.004: the smaller total, but $2 per 1,000.
    const few = fx.run('few', ['false', 'false', null, null, null, null, null, null], { calls: call(0.004) })
    const m = computeDatasetMetrics(fx.db, fx.datasetId)
    // By totals "few" would be cheaper and so on the front; per 1,000, "all" is cheaper and better.
    expect(m.paretoFront).toEqual([all])
    const json = toJsonReport(m)
    const points = costPoints(json)
    expect(points.find((p) => p.run === all)?.cost).toBeCloseTo(1, 9)
    expect(points.find((p) => p.run === few)?.cost).toBeCloseTo(2, 9)
    const svg = costErrorChart(json).svg
    expect(svg).toContain('>cost per 1,000 judged targets<')
    expect(svg).toContain('$1.0000 per 1,000')
    fx.db.close()
  })

  it('says "no price set" where a run’s cost is unknown, and "all replies reused" where it paid nothing', () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer', 'poor'], facts: 2 })
    fx.labelAll('ana', GOLD)
    const paid = fx.run('paid', [...GOLD], { calls: call(0.008) })
    // Made with no price: its calls recorded no money and its model has none.
    const unpriced = fx.run('unpriced', [...GOLD], { calls: call(0) })
    // Every answer from the response cache of an earlier run.
    const cachedRun = fx.run('replay', [...GOLD])
    fx.db
      .prepare(
        `INSERT INTO run_calls (run_id, call_key, status, cached, prompt_tokens, completion_tokens, cost)
         VALUES (?, 'c0', 'done', 1, 100, 10, 0)`,
      )
      .run(cachedRun)
    const m = computeDatasetMetrics(fx.db, fx.datasetId)
    const judge = (id: number) => m.judges.find((j) => j.runId === id)!
    expect(judge(cachedRun).answeredFromCache).toBe(true)
    expect(judge(paid).answeredFromCache).toBe(false)
    // Neither the unknown cost nor the replay's $0 takes a place on the Pareto front.
    expect(m.paretoFront).toEqual([paid])
    const json = toJsonReport(m)
    expect(json.judges.find((j) => j.run === cachedRun)?.answered_from_cache).toBe(true)
    // The chart does not place the unpriced run at $0; its legend says why.
    expect(costPoints(json).some((p) => p.run === unpriced)).toBe(false)
    expect(costPoints(json).find((p) => p.run === cachedRun)?.label).toContain(
      '(all replies reused, nothing sent)',
    )
    expect(costErrorChart(json).svg).toContain(`no price set, not placed: ${judge(unpriced).label}`)
    // The report (what `metrics` prints) says the same: no $0.0000 for the unpriced run.
    const md = toMarkdown(m)
    const costRow = (label: string) =>
      md
        .slice(md.indexOf('Cost and time'))
        .split('\n')
        .find((l) => l.startsWith(`| ${label}`))!
    expect(costRow(judge(unpriced).label)).toMatch(/\| no price set \| no price set \|/)
    expect(costRow(judge(cachedRun).label)).toContain('$0.0000, all replies reused, nothing sent')
    fx.db.close()
  })
})
