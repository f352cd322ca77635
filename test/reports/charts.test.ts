import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { toHtml, toJsonReport } from '../../src/main/reports'
import { compareCharts, keptCompareCharts } from '../../src/renderer/src/views/compare/compareCharts'
import {
  costErrorChart,
  errorByVariantChart,
  frontLine,
  narrowingChart,
  reportCharts,
} from '../../src/shared/charts'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from '../metrics/fixture'

const tmp = tmpDirs()
const GOLD = ['true', 'false', 'true', 'false', 'true', 'true', 'false', 'false']
const call = (cost: number) => ({
  calls: [{ promptTokens: 100, completionTokens: 10, cost, latencyMs: 100 }],
})

/** Three judges: cheap and poor, dear and good, dearest and middling (beaten on both by "good"). */
function threeJudges(dir = tmp()) {
  const fx = makeFixture(dir, { items: 2, variants: ['answer', 'poor'], facts: 2 })
  fx.labelAll('ana', GOLD)
  const cheap = fx.run(
    'cheap',
    ['true', 'true', 'true', 'true', 'true', 'true', 'true', 'false'],
    call(0.001),
  )
  const good = fx.run('good', [...GOLD], call(0.02))
  const dear = fx.run('dear', ['true', 'true', 'true', 'false', 'true', 'true', 'false', 'false'], call(0.05))
  return { fx, cheap, good, dear, dir }
}

const count = (svg: string, re: RegExp) => (svg.match(re) ?? []).length

describe('one chart module for the app and the reports', () => {
  it('reopening the Compare view on the same figures reuses its charts, and changed figures redraw them', () => {
    const { fx } = threeJudges()
    const m = computeDatasetMetrics(fx.db, fx.datasetId)
    fx.db.close()
    const first = keptCompareCharts(m)
    // A reopen gets the same figures as a new object (a new answer from the server).
    const again = keptCompareCharts(JSON.parse(JSON.stringify(m)))
    expect(again).toBe(first)
    const renamed = { ...m, judges: m.judges.map((j, i) => (i === 0 ? { ...j, label: 'renamed judge' } : j)) }
    const redrawn = keptCompareCharts(renamed)
    expect(redrawn).not.toBe(first)
    expect(redrawn.byVariant.svg).toContain('renamed judge')
    expect(redrawn.byVariant.svg).toBe(compareCharts(renamed).byVariant.svg)
    expect(keptCompareCharts(m).byVariant.svg).toBe(first.byVariant.svg)
  })

  it('gives the Compare view the very SVG the HTML report and the CLI write', async () => {
    const { fx, dir } = threeJudges()
    const m = computeDatasetMetrics(fx.db, fx.datasetId)
    fx.db.close()
    const view = compareCharts(m)
    const report = reportCharts(toJsonReport(m))
    expect(report.map((c) => c.svg)).toEqual([view.byVariant.svg, view.costError.svg])
    expect(report.some((c) => c.empty)).toBe(false)
    const html = toHtml(m)
    expect(html).toContain(view.byVariant.svg)
    expect(html).toContain(view.costError.svg)
    const out = join(dir, 'R.md')
    const r = await cli([
      'metrics',
      '--workspace',
      join(dir, 'w.factlab'),
      '--dataset',
      'demo',
      '--format',
      'md',
      '--out',
      out,
      '--charts',
      'svg',
    ])
    expect(r.code).toBe(0)
    expect(readFileSync(join(dir, 'R-by-variant.svg'), 'utf8')).toBe(view.byVariant.svg)
    expect(readFileSync(join(dir, 'R-cost-error.svg'), 'utf8')).toBe(view.costError.svg)
  })

  it('draws a bar per judge and variant, with every judge in the legend', () => {
    const { fx } = threeJudges()
    const json = toJsonReport(computeDatasetMetrics(fx.db, fx.datasetId))
    const svg = errorByVariantChart(json).svg
    // Bars carry their figures in a <title>; the background is the only other rect without one.
    expect(count(svg, /<rect[^>]*><title>/g)).toBe(3 * 2)
    for (const j of json.judges) expect(svg).toContain(`>${j.label}</text>`)
    expect(svg).toContain('>poor<title>poor</title></text>')
  })

  it('gives each bar its interval as a whisker and its n on hover, so four targets do not read as exact', () => {
    const { fx, good } = threeJudges()
    const json = toJsonReport(computeDatasetMetrics(fx.db, fx.datasetId))
    const svg = errorByVariantChart(json).svg
    // Four targets per variant: every bar has a Wilson interval, drawn.
    expect(count(svg, /<path [^>]*data-ci=""/g)).toBe(3 * 2)
    const judge = json.judges.find((j) => j.run === good)!
    const perfect = judge.by_variant.answer!
    expect(perfect.error_rate).toBe(0)
    expect(perfect.error_rate_ci![1]).toBeGreaterThan(0.4)
    expect(svg).toContain(
      `${judge.label} · answer: 0.0% [0.0%–${(perfect.error_rate_ci![1] * 100).toFixed(1)}%] (Wilson), n 4 · too few targets (n=4)`,
    )
    // Under twenty targets every bar is drawn pale, and the legend says what pale means.
    expect(count(svg, /<rect [^>]*data-small=""/g)).toBe(3 * 2)
    expect(svg).toContain('>pale bar: too few targets (under 20)</text>')
    fx.db.close()
  })

  it('draws a bar over twenty targets or more full, with no mark and no pale legend entry', () => {
    const fx = makeFixture(tmp(), { items: 24, variants: ['answer'], facts: 1 })
    const gold = Array.from({ length: 24 }, (_, i) => (i % 3 ? 'true' : 'false'))
    fx.labelAll('ana', gold)
    fx.run(
      'steady',
      gold.map((g, i) => (i === 0 ? (g === 'true' ? 'false' : 'true') : g)),
    )
    const svg = errorByVariantChart(toJsonReport(computeDatasetMetrics(fx.db, fx.datasetId))).svg
    fx.db.close()
    expect(svg).toContain('n 24</title>')
    expect(svg).not.toContain('too few targets')
    expect(svg).not.toContain('data-small')
    expect(svg).not.toContain('pale bar')
  })

  it('joins the Pareto front from cheapest to dearest and rings only its judges', () => {
    const { fx, cheap, good } = threeJudges()
    const json = toJsonReport(computeDatasetMetrics(fx.db, fx.datasetId))
    expect([...json.pareto_front].sort()).toEqual([cheap, good].sort())
    expect(frontLine(json).map((p) => p.run)).toEqual([cheap, good])
    const svg = costErrorChart(json).svg
    expect(count(svg, /<polyline /g)).toBe(1)
    expect(count(svg, /<circle /g)).toBe(3)
    expect(count(svg, /<circle [^>]*stroke="#c44e52"/g)).toBe(2)
    expect(svg).toMatch(/Pareto front<\/title><\/circle>/)
    // A front of one judge is a ringed dot with no line to draw.
    const alone = costErrorChart({ ...json, pareto_front: [good] }).svg
    expect(count(alone, /<polyline /g)).toBe(0)
  })

  it('says what would fill an empty chart instead of drawing empty axes', () => {
    const fx = makeFixture(tmp(), { items: 1, variants: ['answer'], facts: 2 })
    fx.labelAll('ana', ['true', 'false'])
    const json = toJsonReport(computeDatasetMetrics(fx.db, fx.datasetId))
    for (const chart of [...reportCharts(json), narrowingChart([])]) {
      expect(chart.empty).toBe(true)
      expect(chart.svg).toMatch(/<text [^>]*>No /)
      expect(chart.svg).not.toContain('<line')
      expect(count(chart.svg, /<rect /g)).toBe(1)
    }
    expect(errorByVariantChart(json).svg).toContain('No judge run yet.')
    expect(costErrorChart(json).svg).toContain('No judge has an error rate yet')
  })

  it('keeps names as text: nothing in a label can open an element', () => {
    const { fx, good } = threeJudges()
    fx.db.prepare('UPDATE runs SET model = ? WHERE id = ?').run('<img src=x onerror=alert(1)> & "q"', good)
    const json = toJsonReport(computeDatasetMetrics(fx.db, fx.datasetId))
    for (const c of [
      ...reportCharts(json),
      narrowingChart([{ runId: 1, label: '</svg><b>', points: [{ gold: 2, n: 4, width: 0.3 }] }]),
    ]) {
      expect(c.svg).not.toMatch(/<img|<b>|<\/svg>./)
      expect(c.svg.startsWith('<svg ')).toBe(true)
    }
    expect(costErrorChart(json).svg).toContain('&#60;img src=x onerror=alert(1)&#62; &#38; &#34;q&#34;')
  })
})
