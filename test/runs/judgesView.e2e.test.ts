import { describe, expect, it } from 'vitest'
import { appSessions } from '../e2e/harness'
import { fakeLlmForFile } from '../helpers/fakeLlm'

/** The Judges view in Chromium: configure a FaaF judge, preview its request, run it, watch it finish. */
const start = appSessions()
const fake = fakeLlmForFile()

describe('judges view in the browser', () => {
  it('creates a config, previews the exact request, runs it to the end with cost, and re-runs from the cache', async () => {
    const app = await start({ annotator: 'tester' })
    const { page } = app
    const db = app.server.ctx.workspace.db
    const datasetId = (db.prepare('SELECT id FROM datasets ORDER BY id LIMIT 1').get() as { id: number }).id
    const candidates = (
      db
        .prepare(
          `SELECT COUNT(DISTINCT t.candidate_id) AS n FROM targets t JOIN units u ON u.id = t.unit_id
           WHERE t.dataset_id = ? AND u.kind = 'fact' AND u.superseded_by IS NULL AND u.deleted_at IS NULL`,
        )
        .get(datasetId) as { n: number }
    ).n
    // The demo ships its own illustrative runs; the table lists them below the new ones.
    const demoRuns = (
      db.prepare('SELECT COUNT(*) AS n FROM runs WHERE dataset_id = ?').get(datasetId) as { n: number }
    ).n
    await page.evaluate(`location.hash = '#/judges/${datasetId}'`)
    const view = page.getByTestId('judges-view')
    await expect.poll(() => view.getByTestId('key-status').textContent()).toContain('ready')

    await view.getByLabel('Config name').fill('faaf against the fake')
    await view.getByLabel('Provider').selectOption('openai')
    await view.getByLabel('Model').fill('gpt-fake')
    await view.getByLabel('Base URL').fill(fake().openaiUrl)
    await view.getByLabel('Method').selectOption('faaf-tf')
    await view.getByRole('button', { name: 'Create config' }).click()
    await view.getByRole('button', { name: 'Save changes' }).waitFor()

    const before = fake().calls()
    await view.getByRole('button', { name: 'Preview request' }).click()
    await expect.poll(() => view.getByTestId('preview-body').first().textContent()).toContain('"tool_choice"')
    expect(fake().calls()).toBe(before)

    await view.getByRole('button', { name: 'Start run' }).click()
    // Until the new run's row is listed, the first row is an earlier, finished run.
    await expect.poll(() => view.locator('tbody tr').count()).toBe(demoRuns + 1)
    const status = view.getByTestId('run-status').first()
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/^done/)
    expect(fake().calls() - before).toBe(candidates)
    await app.shot('judges-view')

    await view.getByRole('button', { name: 'Start run' }).click()
    await expect.poll(() => view.locator('tbody tr').count()).toBe(demoRuns + 2)
    await expect
      .poll(() => view.getByTestId('run-status').first().textContent(), { timeout: 20_000 })
      .toMatch(/^done/)
    expect(fake().calls() - before).toBe(candidates)
    // The counts come with the run list, which refreshes after the live status says done.
    await expect
      .poll(() => view.locator('tbody tr').first().textContent())
      .toContain(`${candidates} of ${candidates} calls, all replies reused, nothing sent`)
  })
})
