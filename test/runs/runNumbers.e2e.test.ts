import { describe, expect, it } from 'vitest'
import { appSessions } from '../e2e/harness'

/** The Judges view and the Compare view in Chromium: one run, one name, counted from repeat 1. */
const start = appSessions()

describe('repeat numbers in the browser', () => {
  it('the Judges view and the Compare view number the second run of a config "repeat 2" alike', async () => {
    const app = await start({ annotator: 'tester' })
    const { page } = app
    const db = app.server.ctx.workspace.db
    const datasetId = (db.prepare('SELECT id FROM datasets ORDER BY id LIMIT 1').get() as { id: number }).id
    await page.evaluate(`location.hash = '#/judges/${datasetId}'`)
    const view = page.getByTestId('judges-view')

    // The lexical baseline needs no key and no server: two runs of it, as a repeat.
    await view.getByLabel('Config name').fill('lexical twice')
    await view.getByLabel('Provider').selectOption('lexical')
    await view.getByLabel('Model').fill('rougeL')
    await view.getByLabel('Method').selectOption('lexical')
    await view.getByRole('button', { name: 'Create config' }).click()
    await view.getByRole('button', { name: 'Save changes' }).waitFor()
    await view.getByLabel('Repeat').fill('2')
    // The demo ships a lexical run of its own: only the runs started here count.
    const before = db.prepare('SELECT COALESCE(MAX(id), 0) FROM runs').pluck().get() as number
    await view.getByRole('button', { name: 'Start run' }).click()

    const ids = () =>
      db
        .prepare("SELECT id FROM runs WHERE provider = 'lexical' AND id > ? ORDER BY id")
        .pluck()
        .all(before) as number[]
    await expect.poll(() => ids().length).toBe(2)
    const [firstId, secondId] = ids() as [number, number]
    const second = view.getByTestId(`run-${secondId}`)
    await expect
      .poll(() => second.getByTestId('run-status').textContent(), { timeout: 20_000 })
      .toMatch(/^done/)
    await expect
      .poll(() => view.getByTestId(`run-${firstId}`).getByTestId('run-status').textContent(), {
        timeout: 20_000,
      })
      .toMatch(/^done/)
    expect(await second.locator('td').first().textContent()).toContain(`#${secondId} (repeat 2)`)
    expect(await view.getByTestId(`run-${firstId}`).locator('td').first().textContent()).not.toContain(
      'repeat',
    )

    await page.evaluate(`location.hash = '#/compare/${datasetId}'`)
    const table = page.getByTestId('judge-table')
    await table.waitFor()
    await expect
      .poll(() => table.locator(`[data-row="run-${secondId}"]`).textContent())
      .toContain(`rougeL · lexical · repeat 2 (#${secondId})`)
    expect(await table.locator(`[data-row="run-${firstId}"]`).textContent()).toContain(
      `rougeL · lexical (#${firstId})`,
    )
  })
})
