import { describe, expect, it } from 'vitest'
import { MODELS, modelFile } from '../helpers/refcheckerRelease'
import { appSessions } from './harness'

const start = appSessions()

describe('a first run with nothing empty, and released files as they are', () => {
  it("a fresh workspace's Compare view has every chart drawn", async () => {
    const app = await start()
    const { page } = app
    const datasetId = (
      app.server.ctx.workspace.db.prepare('SELECT id FROM datasets ORDER BY id LIMIT 1').get() as {
        id: number
      }
    ).id
    await page.evaluate(`location.hash = '#/compare/${datasetId}'`)
    await page.getByTestId('judge-table').waitFor()
    const bars = page.getByTestId('variant-bars')
    const scatter = page.getByTestId('cost-scatter')
    await bars.waitFor()
    await scatter.waitFor()
    // Drawn, not empty: a bar per judge and variant, a dot per judge, each with a real size.
    const judges = await page.getByTestId('judge-table').locator('tbody tr[data-row^="run-"]').count()
    expect(judges).toBe(4)
    // Bars carry their figures in a <title>; the background and legend swatches do not.
    expect(await bars.locator('rect:has(title)').count()).toBe(judges * 3)
    expect(await scatter.locator('circle').count()).toBe(judges)
    for (const chart of [bars, scatter]) {
      const box = (await chart.boundingBox())!
      expect(box.width).toBeGreaterThan(100)
      expect(box.height).toBeGreaterThan(100)
    }
    const firstBar = (await bars.locator('rect:has(title)').first().boundingBox())!
    expect(firstBar.height).toBeGreaterThan(0)
    // McNemar for every pair and a confusion matrix with counts in it.
    await page.getByTestId('mcnemar').waitFor()
    expect(await page.getByTestId('mcnemar').locator('td').count()).toBe(judges * judges)
    const cells = await page.getByTestId('confusion-binary').locator('td').allTextContents()
    expect(cells.map(Number).reduce((a, b) => a + b, 0)).toBeGreaterThan(0)
    await app.shot('first-run-compare')
  })

  it('seven released RefChecker files picked together make one dataset with seven variants', async () => {
    const app = await start({ demo: false })
    const { page } = app
    await page.getByRole('button', { name: 'Import dataset…' }).first().click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard.getByLabel('Dataset file').setInputFiles(MODELS.map(modelFile))
    await wizard.getByText('the columns look like refchecker').waitFor()
    await wizard.getByTestId('more-files').waitFor()
    await wizard.getByLabel('Dataset name').fill('RefChecker zero context')
    await app.shot('import-seven-files')
    await wizard.getByRole('button', { name: 'Import', exact: true }).click()
    await wizard.getByText(/Imported “RefChecker zero context”: 4 items, 28 answers/).waitFor()
    const files = wizard.getByRole('list', { name: 'Files and their variants' }).getByRole('listitem')
    expect(await files.count()).toBe(7)
    expect(await files.first().textContent()).toBe('nq_alpaca_7B_answers.json → variant “alpaca_7B” (4 rows)')
    const variants = app.server.ctx.workspace.db
      .prepare(
        `SELECT DISTINCT c.variant FROM candidates c JOIN items i ON i.id = c.item_id
         JOIN datasets d ON d.id = i.dataset_id WHERE d.name = 'RefChecker zero context' ORDER BY c.variant`,
      )
      .pluck()
      .all()
    expect(variants).toEqual([...MODELS].sort())
    // No reference in the files: the annotate view says so instead of an empty pane.
    await wizard.getByRole('button', { name: 'Open the dataset' }).click()
    await page.getByRole('heading', { name: 'RefChecker zero context' }).waitFor()
    const datasetId = (
      app.server.ctx.workspace.db
        .prepare("SELECT id FROM datasets WHERE name = 'RefChecker zero context'")
        .get() as { id: number }
    ).id
    await page.evaluate(`location.hash = '#/annotate/${datasetId}'`)
    await expect.poll(() => page.getByTestId('no-reference').textContent()).toBe('No reference given')
    await app.shot('refchecker-no-reference')
  })
})
