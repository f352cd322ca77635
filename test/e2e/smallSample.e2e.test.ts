import { describe, expect, it } from 'vitest'
import { importFile } from '../../src/main/import'
import { appSessions } from './harness'
import { turnBlindOff } from './pages/blindWatch'

const start = appSessions()

/**
 * Two summaries, three sentences, four workers (the QA's file): what Compare and Agreement show.
 * No correlation reads as an exact 1.000 and no agreement coefficient stands unmarked.
 */
describe('a dataset of two items in the browser', () => {
  it('Compare and Agreement mark every figure that rests on too few items or targets', async () => {
    const app = await start({ demo: false, annotator: 'lead' })
    const { page } = app
    await turnBlindOff(page)
    const report = await importFile(app.server.ctx.workspace, {
      file: 'test/fixtures/smallSample/mturk_xsum.jsonl',
    })
    const id = report.datasetId
    // The file's workers come in as its reference labels (sources), which agreement leaves out; as
    // people, their three shared targets are what the marks are about.
    app.server.ctx.workspace.db.prepare("UPDATE annotators SET kind = 'person'").run()

    await page.evaluate(`location.hash = '#/compare/${id}'`)
    const summary = page.getByTestId('compare-summary')
    await summary.waitFor()
    // α as the Agreement view prints it, with the mark; not "α 0.600" alone.
    expect(await summary.textContent()).toContain("Krippendorff's α 0.60 · too few shared targets (n=3)")
    // Percent agreement with its Wilson interval over the three shared targets, and the same mark.
    expect(await page.getByTestId('percent-agreement').textContent()).toMatch(
      /^\d+\.\d% \[\d+\.\d–\d+\.\d%\] · too few shared targets \(n=3\)$/,
    )
    // Labels from a file carry no time: each person's cost says so, not a bare dash.
    expect(await page.locator('[data-row^="human-"] [data-metric="cost"]').first().textContent()).toBe(
      'no time recorded',
    )
    // Accuracy is the error rate read the other way, over the same one to three targets: marked too.
    const accuracy = await page.locator('[data-row^="human-"] [data-metric="accuracy"]').allTextContents()
    expect(accuracy.length).toBeGreaterThan(0)
    for (const a of accuracy) expect(a).toMatch(/^\d+\.\d%too few targets \(n=[1-3]\)$/)
    const items = page.getByTestId('item-level')
    await items.waitFor()
    const cells = await items.locator('tbody tr').first().locator('td').allTextContents()
    // The target error rate beside a pooled row carries the judge table's mark, not a bare rate.
    expect(cells.at(-1)).toMatch(/^\d+\.\d% too few targets \(n=[1-3]\)$/)
    // After judge, units, item score, variant and level: the items, then each coefficient's mark
    // on its own line under the dash (as κ's in the judge table).
    expect(cells[4]).toBe('pooled')
    expect(cells.slice(5, 9)).toEqual([
      '2',
      '— too few items (n=2)',
      '— too few items (n=2)',
      '— too few items (n=2)',
    ])
    expect(await items.textContent()).not.toContain('1.000')
    await app.shot('small-sample-compare')

    await page.evaluate(`location.hash = '#/agreement/${id}'`)
    const alpha = page.getByTestId('figure-Krippendorff’s α (nominal)')
    await alpha.waitFor()
    expect(await alpha.textContent()).toBe('0.60')
    expect(await page.getByTestId('figure-Percent agreement').locator('..').textContent()).toMatch(
      /95% CI \d+\.\d–\d+\.\d% · too few shared targets \(n=3\)/,
    )
    for (const label of ['Fleiss’ κ', 'Krippendorff’s α (nominal)', 'Gwet’s AC1', 'PABAK'])
      expect(await page.getByTestId(`figure-${label}`).locator('..').textContent()).toContain(
        'too few shared targets (n=3)',
      )
    // Per pair: κ, AC1 and PABAK all carry the words (A1 and A4 share one target: 1.00 each).
    const pairs = page.getByRole('table', { name: "Cohen's kappa per pair" })
    const a1a4 = await pairs.locator('tbody tr', { hasText: 'A1 · A4' }).locator('td').allTextContents()
    expect(a1a4.slice(1)).toEqual([
      '1',
      'not defined too few shared targets (n=1)',
      '1.00 too few shared targets (n=1)',
      '1.00 too few shared targets (n=1)',
    ])
    // By variant: every coefficient starred, the star explained under the table.
    const variants = page.getByRole('table', { name: 'Agreement by variant' })
    const row = await variants.locator('tbody tr').first().locator('td').allTextContents()
    expect(row.slice(3)).toEqual(['0.55 *', '0.60 *', '0.56 *', '0.56 *'])
    expect(row[2]).toMatch(/^\d+\.\d% \[\d+\.\d–\d+\.\d%\] \*$/)
    expect(await page.getByTestId('variant-too-few-note').textContent()).toContain('κ, α, AC1 and PABAK')
    await app.shot('small-sample-agreement')
  })

  it('Compare draws a judge’s bar over too few targets pale, marked on hover and in the legend', async () => {
    const app = await start({ demo: false, annotator: 'lead', viewport: { width: 1024, height: 900 } })
    const { page } = app
    const report = await importFile(app.server.ctx.workspace, {
      file: 'test/fixtures/smallSample/mturk_xsum.jsonl',
    })
    await page.evaluate(`location.hash = '#/compare/${report.datasetId}'`)
    // The offline baseline judges the three targets: every bar rests on one or two of them.
    await page
      .getByTestId('cmp-empty')
      .first()
      .getByRole('button', { name: 'Run the lexical baseline' })
      .click()
    const chart = page.getByTestId('variant-bars')
    await chart.waitFor()
    const bars = chart.locator('rect[data-small]')
    await expect.poll(() => bars.count()).toBeGreaterThan(0)
    expect(await bars.first().locator('title').textContent()).toMatch(/ · too few targets \(n=\d\)$/)
    expect(await chart.textContent()).toContain('pale bar: too few targets (under 20)')
    await chart.scrollIntoViewIfNeeded()
    await app.shot('small-sample-variant-bars-1024')
    await page.setViewportSize({ width: 1440, height: 900 })
    await chart.scrollIntoViewIfNeeded()
    await app.shot('small-sample-variant-bars-1440')
  })
})
