import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importFile } from '../../src/main/import'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { ARTIFACTS, appSessions } from './harness'
import { turnBlindOff } from './pages/blindWatch'

const start = appSessions()

/**
 * QAGS as released: four workers' yes/no per summary sentence, kept as the dataset's own
 * reference labels (sources), and one person of the workspace who labelled beside them.
 */
describe('the Agreement view of a released benchmark', () => {
  it('reads the release’s own agreement apart from the people’s, and says who each pair is', async () => {
    const app = await start({ demo: false, annotator: 'lead' })
    const { page } = app
    await turnBlindOff(page)
    const ws = app.server.ctx.workspace
    const { datasetId } = await importFile(ws, { file: 'test/fixtures/import/qags.jsonl' })
    const lead = ws.db.prepare("SELECT id FROM annotators WHERE name = 'lead'").get() as { id: number }
    const targets = ws.db
      .prepare(
        `SELECT t.id FROM targets t JOIN candidates c ON c.id = t.candidate_id JOIN items i ON i.id = c.item_id
         WHERE i.dataset_id = ? ORDER BY t.id`,
      )
      .all(datasetId) as { id: number }[]
    for (const t of targets.slice(0, 2))
      ws.labels.save({ targetId: t.id, annotatorId: lead.id, verdict: 'consistent', evidence: [] })

    await page.evaluate(`location.hash = '#/agreement/${datasetId}'`)
    const release = page.getByTestId('release-agreement')
    await release.waitFor()
    // One person: no agreement among people, and the release's workers are not counted as people.
    expect(await page.locator('.agr-summary').first().textContent()).toContain(
      'No target has labels from two people yet',
    )
    // The release's own figure, with the people's coefficients and marks.
    expect(await page.getByTestId('release-figure-Targets').textContent()).toBe('3')
    for (const label of [
      'Percent agreement',
      'Fleiss’ κ',
      'Krippendorff’s α (nominal)',
      'Gwet’s AC1',
      'PABAK',
    ])
      expect(await page.getByTestId(`release-figure-${label}`).locator('..').textContent()).toContain(
        'too few shared targets (n=3)',
      )
    // A person against the release, the person first; and the workers against each other, apart.
    const personRows = await page
      .getByRole('table', { name: "Each person against the release's labels" })
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((r) => [...r.querySelectorAll('td')].slice(0, 2).map((c) => c.textContent)),
      )
    expect(personRows).toEqual([
      ['lead', 'w1'],
      ['lead', 'w2'],
      ['lead', 'w3'],
      ['lead', 'w4'],
    ])
    const workers = page.getByRole('table', { name: "The release's annotators against each other" })
    expect(await workers.locator('tbody tr').first().locator('td').allTextContents()).toEqual([
      'w1',
      'w2',
      '3',
      '1.00 too few shared targets (n=3)',
      '1.00 too few shared targets (n=3)',
      '1.00 too few shared targets (n=3)',
    ])
    expect(await workers.textContent()).not.toContain('lead')
    // Compare's summary line says whose agreement it gives, and gives the release's beside it.
    await page.evaluate(`location.hash = '#/compare/${datasetId}'`)
    const summary = page.getByTestId('compare-summary')
    await summary.waitFor()
    expect(await summary.textContent()).toContain('agreement among people not defined')
    expect(await page.getByTestId('release-agreement-summary').textContent()).toMatch(
      /^ · among the release’s annotators 77\.8% \[27\.3–97\.0%\] · too few shared targets \(n=3\), Krippendorff's α 0\.43 · too few shared targets \(n=3\)$/,
    )
    await app.shot('release-compare-1440')
    await page.evaluate(`location.hash = '#/agreement/${datasetId}'`)
    await release.waitFor()
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 900 })
      await release.screenshot({ path: join(ARTIFACTS, `release-agreement-${width}.png`) })
    }
  })

  it('WikiEvalFacts with two people: theirs are the figures, the release’s verdicts each person’s reference', async () => {
    const app = await start({ demo: false, annotator: 'lead' })
    const { page } = app
    await turnBlindOff(page)
    const ws = app.server.ctx.workspace
    const { datasetId } = await importFile(ws, { file: 'test/fixtures/import/wikievalfacts.csv' })
    const ana = ensureAnnotator(ws.db, 'ana')
    const lead = ensureAnnotator(ws.db, 'lead')
    const targets = ws.db
      .prepare(
        `SELECT t.id FROM targets t JOIN candidates c ON c.id = t.candidate_id JOIN items i ON i.id = c.item_id
         WHERE i.dataset_id = ? ORDER BY t.id LIMIT 4`,
      )
      .all(datasetId) as { id: number }[]
    for (const [i, t] of targets.entries()) {
      ws.labels.save({ targetId: t.id, annotatorId: lead.id, verdict: 'true', evidence: [] })
      ws.labels.save({
        targetId: t.id,
        annotatorId: ana.id,
        verdict: i === 0 ? 'false' : 'true',
        evidence: [],
      })
    }
    await page.evaluate(`location.hash = '#/agreement/${datasetId}'`)
    const release = page.getByTestId('release-agreement')
    await release.waitFor()
    expect(await page.getByTestId('figure-Targets').textContent()).toBe('4')
    expect(await page.getByRole('heading', { name: 'Among people' }).count()).toBe(1)
    const rows = await page
      .getByRole('table', { name: "Each person against the release's labels" })
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((r) => [...r.querySelectorAll('td')].slice(0, 3).map((c) => c.textContent)),
      )
    expect(rows).toEqual([
      ['ana', 'wikievalfacts', '4'],
      ['lead', 'wikievalfacts', '4'],
    ])
    // One set of the release's labels: nothing to agree among, so no such figure.
    expect(await page.getByTestId('release-figure-Targets').count()).toBe(0)
    expect(await release.textContent()).toContain('Labels that came with the dataset (wikievalfacts)')
    await page.setViewportSize({ width: 1024, height: 900 })
    await page.locator('.agr-summary').screenshot({ path: join(ARTIFACTS, 'release-with-people-1024.png') })
  })
})
