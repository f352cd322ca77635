import { describe, expect, it } from 'vitest'
import { appSessions } from '../e2e/harness'
import { fakeLlmForFile } from '../helpers/fakeLlm'

/** The Judges view in Chromium: a batch-mode run from the Mode choice to its listed provider batch. */
const start = appSessions()
const fake = fakeLlmForFile(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'])

describe('batch mode in the judges view', () => {
  it('runs a config as a batch, shows the provider batch and the cost at batch price', async () => {
    // The batch ends on its first status check, so the app never waits between polls.
    fake().batches.plan = { steps: 1 }
    const app = await start({ annotator: 'tester' })
    const { page } = app
    const db = app.server.ctx.workspace.db
    const datasetId = (db.prepare('SELECT id FROM datasets ORDER BY id LIMIT 1').get() as { id: number }).id
    await page.evaluate(`location.hash = '#/judges/${datasetId}'`)
    const view = page.getByTestId('judges-view')
    await expect.poll(() => view.getByTestId('key-status').textContent()).toContain('ready')

    await view.getByLabel('Config name').fill('faaf in a batch')
    await view.getByLabel('Provider').selectOption('anthropic')
    await view.getByLabel('Model').fill('claude-fake')
    await view.getByLabel('Base URL').fill(fake().anthropicUrl)
    await view.getByLabel('Method').selectOption('faaf-tf')
    await view.getByRole('button', { name: 'Create config' }).click()
    await view.getByRole('button', { name: 'Save changes' }).waitFor()

    await view.getByRole('button', { name: 'Preview request' }).click()
    await expect.poll(() => view.getByTestId('preview-path').first().textContent()).toMatch(/^tool-call: /)

    // A price for the model, as a person enters it: with none, the cost reads "no price set".
    const model = view.getByRole('region', { name: 'Model capabilities' })
    await model.getByLabel('Input price', { exact: true }).fill('3')
    await model.getByLabel('Output price', { exact: true }).fill('15')
    await model.getByRole('button', { name: 'Save model' }).click()
    await expect.poll(() => model.textContent()).toContain('Saved.')
    const before = fake().batches.submissions.length
    await view.getByLabel('Run mode').selectOption('batch')
    const listed = db
      .prepare('SELECT COUNT(*) FROM runs WHERE dataset_id = ?')
      .pluck()
      .get(datasetId) as number
    await view.getByRole('button', { name: 'Start run' }).click()
    // The new run first appears at the top; until then the first row is an earlier, finished run.
    await expect.poll(() => view.locator('tbody tr').count()).toBe(listed + 1)
    const row = view.locator('tbody tr').first()
    await expect.poll(() => row.getByTestId('run-status').textContent(), { timeout: 20_000 }).toMatch(/^done/)
    expect(fake().batches.submissions.length).toBe(before + 1)
    const id = fake().batches.submissions.at(-1)?.batchId ?? ''
    // The batch list refreshes on its own after the run's status: wait for it, never read it once.
    await expect.poll(() => row.getByTestId('run-batches').textContent()).toContain(id)
    await expect
      .poll(() => row.getByTestId('run-batches').textContent())
      .toContain('answers read (provider: ended)')
    expect(await row.getByTestId('run-cost').textContent()).toContain('batch price')
    await app.shot('judges-batch')
    fake().batches.plan = {}
  })
})
