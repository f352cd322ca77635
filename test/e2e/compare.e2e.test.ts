import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { resolveGold } from '../../src/main/labels/gold'
import { computeItemLevel } from '../../src/main/metrics/items'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { toJsonReport } from '../../src/main/reports'
import type { Db } from '../../src/main/store/connection'
import { chartFileName } from '../../src/renderer/src/views/compare/chartName'
import { fmtPct, fmtPctCi } from '../../src/shared/contract/metrics'
import { itemLevelCells } from '../../src/shared/itemLevelRows'
import { withCiMark } from '../../src/shared/smallSample'
import { appSessions } from './harness'
import { AnnotatePage } from './pages/annotate'
import { turnBlindOff } from './pages/blindWatch'

const start = appSessions()

/** Imported judge runs on the demo dataset (one config twice): each flips gold on a different share of targets. */
function seedRuns(db: Db, datasetId: number): number[] {
  const gold = resolveGold(db, datasetId)
  const targets = db
    .prepare('SELECT id FROM targets WHERE dataset_id = ? ORDER BY id')
    .pluck()
    .all(datasetId) as number[]
  const insRun = db.prepare(
    `INSERT INTO runs (kind, dataset_id, provider, model, method, repeat_index, status, created_at, started_at, finished_at)
     VALUES ('imported', ?, 'imported', ?, 'faaf-tf', ?, 'done', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z')`,
  )
  const insVerdict = db.prepare(
    'INSERT INTO verdicts (run_id, target_id, status, verdict) VALUES (?, ?, ?, ?)',
  )
  const insCall = db.prepare(
    `INSERT INTO run_calls (run_id, call_key, status, latency_ms, prompt_tokens, completion_tokens, cost)
     VALUES (?, 'c0', 'done', 800, 12000, 900, ?)`,
  )
  return [
    { model: 'careful-judge', every: 7, cost: 0.09, repeat: 0 },
    { model: 'careful-judge', every: 6, cost: 0.09, repeat: 1 },
    { model: 'quick-judge', every: 4, cost: 0.01, repeat: 0 },
  ].map(({ model, every, cost, repeat }) => {
    const runId = Number(insRun.run(datasetId, model, repeat).lastInsertRowid)
    insCall.run(runId, cost)
    targets.forEach((t, i) => {
      const truthy = (gold.get(t)?.verdict ?? 'true') === 'true'
      const flip = i % every === 0
      insVerdict.run(runId, t, i % 11 === 5 ? 'na' : 'ok', truthy !== flip ? 'true' : 'false')
    })
    return runId
  })
}

describe('compare view in the browser', () => {
  it('shows the same figures as the metrics service and opens a disagreement in Annotate', async () => {
    const app = await start({ annotator: 'tester' })
    const { page } = app
    const db = app.server.ctx.workspace.db
    const { id: datasetId } = db
      .prepare(
        `SELECT t.dataset_id AS id FROM labels l JOIN targets t ON t.id = l.target_id
         GROUP BY t.dataset_id ORDER BY COUNT(*) DESC LIMIT 1`,
      )
      .get() as { id: number }
    const runIds = seedRuns(db, datasetId)
    const expected = computeDatasetMetrics(db, datasetId)
    // A lead reading every disagreement: blind mode (on by default) would keep them back.
    await turnBlindOff(page)
    const cli = toJsonReport(expected)
    expect(expected.goldTargets).toBeGreaterThan(0)

    await page.evaluate(`location.hash = '#/compare/${datasetId}'`)
    const table = page.getByTestId('judge-table')
    await table.waitFor()
    for (const runId of runIds) {
      const j = expected.judges.find((x) => x.runId === runId)!
      const fromCli = cli.judges.find((x) => x.run === runId)!
      expect(fromCli.error_rate).toBe(j.errorRate)
      const row = table.locator(`[data-row="run-${runId}"]`)
      expect(await row.locator('[data-metric="errorRate"]').textContent()).toBe(
        withCiMark(fmtPctCi(j.errorRate, j.errorRateCi), j.errorRateCi, j.errorRateCiMethod),
      )
      expect(await row.locator('[data-metric="f1Unsupported"]').textContent()).toBe(
        withCiMark(fmtPctCi(j.f1Unsupported, j.f1Ci), j.f1Ci, j.f1CiMethod),
      )
      expect(await row.locator('[data-metric="n"]').textContent()).toBe(String(j.n))
    }
    for (const h of expected.humans) {
      const row = table.locator(`[data-row="human-${h.annotatorId}"]`)
      expect(await row.locator('[data-metric="errorRate"]').textContent()).toBe(
        withCiMark(fmtPctCi(h.errorRate, h.errorRateCi), h.errorRateCi, h.errorRateCiMethod),
      )
    }
    // Sorting by error rate puts the careful judge (fewer flips) above the quick one.
    const order = async () =>
      await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row')))
    // The demo's own illustrative runs sort among them; the seeded runs keep their order.
    const seeded = new Set(runIds.map((id) => `run-${id}`))
    const ranked = (await order()).filter((r) => r !== null && seeded.has(r))
    expect(ranked).toEqual(runIds.map((id) => `run-${id}`))
    await table.getByRole('button', { name: /Error rate/ }).click()
    expect((await order()).filter((r) => r !== null && seeded.has(r))).toEqual([...ranked].reverse())

    expect(await page.getByTestId('mcnemar').locator('td').count()).toBe(expected.judges.length ** 2)
    // Item-level correlations, with each judge's target-level error rate beside them.
    const items = page.getByTestId('item-level')
    await items.waitFor()
    // A figure's small-sample mark sits on its own line under it, after a space.
    const itemRows = itemLevelCells(computeItemLevel(db, datasetId)).map((r) =>
      r.map((c) => (typeof c === 'string' ? c : c.note ? `${c.text} ${c.note}` : c.text)),
    )
    for (const runId of runIds) {
      const j = expected.judges.find((x) => x.runId === runId)!
      const want = itemRows.find((r) => r[0] === j.label && r[3] === 'all')!
      const cells = await items
        .locator('tbody tr')
        .filter({ hasText: j.label })
        .first()
        .locator('td')
        .allTextContents()
      expect(cells).toEqual([...want, fmtPct(j.errorRate)])
    }
    // The two runs of the careful judge's config show their spread.
    const spread = expected.spreads[0]!
    expect(spread.runIds).toEqual(runIds.slice(0, 2))
    expect(await page.getByTestId('repeat-spread').locator('tbody td').nth(2).textContent()).toBe(
      fmtPct(spread.errorRate!.mean),
    )
    const total = page.getByTestId('disagreement-total')
    await total.waitFor()
    const list = page.getByTestId('disagreements').getByRole('button')
    await list.first().waitFor()
    await page.getByTestId('variant-bars').waitFor()
    await page.getByTestId('cost-scatter').waitFor()
    await app.shot('compare')
    await page.getByTestId('label-next').scrollIntoViewIfNeeded()
    await app.shot('compare-lower')

    // The export is the same report the CLI writes: a self-contained page with its charts.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      (async () => {
        await page.getByRole('button', { name: 'Export ▾' }).click()
        await page.getByRole('menuitem', { name: 'HTML report (charts included)' }).click()
      })(),
    ])
    expect(download.suggestedFilename()).toMatch(/-metrics\.html$/)
    const html = readFileSync((await download.path())!, 'utf8')
    expect(html).toContain('<svg')
    expect(html).toContain(fmtPctCi(expected.judges[0]!.errorRate, expected.judges[0]!.errorRateCi))

    // Each chart saves as a file named after the dataset: a standalone SVG with its legend, and a PNG of it.
    const saves = page.getByTestId('save-error-by-variant')
    const [svgFile] = await Promise.all([
      page.waitForEvent('download'),
      saves.getByRole('button', { name: 'Save SVG' }).click(),
    ])
    expect(svgFile.suggestedFilename()).toBe(chartFileName(expected.dataset, 'error-by-variant', 'svg'))
    const svg = readFileSync((await svgFile.path())!, 'utf8')
    expect(svg).toMatch(/^<svg[^>]+xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    expect(svg).toContain(expected.judges[0]!.label)
    expect(svg).not.toContain('class=')
    const [pngFile] = await Promise.all([
      page.waitForEvent('download'),
      saves.getByRole('button', { name: 'Save PNG' }).click(),
    ])
    expect(pngFile.suggestedFilename()).toBe(chartFileName(expected.dataset, 'error-by-variant', 'png'))
    const png = readFileSync((await pngFile.path())!)
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a')
    // Twice the chart's 560-unit width, so it stays sharp when zoomed.
    expect(png.readUInt32BE(16)).toBe(1120)

    const targetId = Number(await list.first().getAttribute('data-target'))
    await list.first().click()
    await expect.poll(() => page.evaluate('location.hash')).toBe(`#/annotate/${datasetId}?target=${targetId}`)
    const annotate = new AnnotatePage(page)
    await expect.poll(() => annotate.focusedTargetId()).toBe(targetId)
    await app.shot('compare-to-annotate')
  })
})
