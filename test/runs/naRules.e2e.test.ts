import { describe, expect, it } from 'vitest'
import { importFile } from '../../src/main/import'
import { appSessions } from '../e2e/harness'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { SETTING } from '../helpers/refcheckerRelease'

/**
 * The two N/A rules in the browser: the Judges view offers how FaaF reads a reply with an invalid
 * argument and its request preview says which rule reads the replies; the Compare view's RefChecker
 * panel says what a checker N/A counted as, counts the N/As apart, and reads them the other way
 * on request. Screenshots at 1024 and 1440 px.
 */
const start = appSessions()
const fake = fakeLlmForFile()

describe('N/A rules in the browser', () => {
  it('the Judges view offers the FaaF rule and the preview says it', async () => {
    const app = await start({ annotator: 'tester', viewport: { width: 1024, height: 900 } })
    const { page } = app
    const db = app.server.ctx.workspace.db
    const datasetId = (db.prepare('SELECT id FROM datasets ORDER BY id LIMIT 1').get() as { id: number }).id
    await page.evaluate(`location.hash = '#/judges/${datasetId}'`)
    const view = page.getByTestId('judges-view')
    await view.getByLabel('Config name').fill('faaf')
    await view.getByLabel('Provider').selectOption('openai')
    await view.getByLabel('Model').fill('gpt-fake')
    await view.getByLabel('Base URL').fill(fake().openaiUrl)
    await view.getByLabel('Method').selectOption('faaf-tf-cite')
    const rule = view.getByLabel('An invalid argument makes N/A')
    expect(await rule.inputValue()).toBe('call')
    await view.getByRole('button', { name: 'Create config' }).click()
    await view.getByRole('button', { name: 'Save changes' }).waitFor()
    await view.getByRole('button', { name: 'Preview request' }).click()
    await expect
      .poll(() => view.getByTestId('preview-reading').first().textContent())
      .toContain('every fact of this call is N/A')
    await app.shot('na-scope-judges-1024')
    await page.setViewportSize({ width: 1440, height: 900 })
    await app.shot('na-scope-judges-1440')

    await rule.selectOption('field')
    await view.getByRole('button', { name: 'Save changes' }).click()
    await view.getByRole('button', { name: 'Preview request' }).click()
    await expect
      .poll(() => view.getByTestId('preview-reading').first().textContent())
      .toContain('only that fact is N/A')
  })

  it('the RefChecker panel says what a checker N/A counted as, and reads it the other way on request', async () => {
    const app = await start({ annotator: 'tester', viewport: { width: 1024, height: 900 } })
    const { page } = app
    const ws = app.server.ctx.workspace
    const { datasetId } = await importFile(ws, { file: SETTING })
    // A checker run: every triplet entailment, but the first triplet of each response N/A.
    const rows = ws.db
      .prepare(
        `SELECT t.id AS id, t.candidate_id AS c FROM targets t WHERE t.dataset_id = ? ORDER BY t.candidate_id, t.id`,
      )
      .all(datasetId) as { id: number; c: number }[]
    const run = Number(
      ws.db
        .prepare(
          `INSERT INTO runs (kind, dataset_id, provider, model, method, repeat_index, status, created_at, started_at, finished_at)
           VALUES ('imported', ?, 'imported', 'checker', 'refchecker', 0, 'done', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z')`,
        )
        .run(datasetId).lastInsertRowid,
    )
    const ins = ws.db.prepare('INSERT INTO verdicts (run_id, target_id, status, verdict) VALUES (?, ?, ?, ?)')
    let na = 0
    rows.forEach((r, i) => {
      const first = i === 0 || rows[i - 1]!.c !== r.c
      if (first) na++
      ins.run(run, r.id, first ? 'na' : 'ok', first ? null : 'entailment')
    })
    await page.evaluate(`location.hash = '#/compare/${datasetId}'`)
    const panel = page.getByTestId('refchecker-panel')
    await expect
      .poll(() => panel.getByTestId('refchecker-na-rule').textContent())
      .toContain("a checker N/A counts as Neutral (as RefChecker's benchmark)")
    const row = panel.getByRole('row', { name: /checker/ })
    expect(await row.locator('td').nth(3).textContent()).toBe(String(na))
    await panel.scrollIntoViewIfNeeded()
    await app.shot('refchecker-na-1024')
    await page.setViewportSize({ width: 1440, height: 900 })
    await panel.scrollIntoViewIfNeeded()
    await app.shot('refchecker-na-1440')

    await panel.getByLabel('What a checker N/A counts as').selectOption('left-out')
    await expect
      .poll(() => panel.getByTestId('refchecker-na-rule').textContent())
      .toContain('a checker N/A is left out of the shares')
    // Only entailments are left once the N/As are out.
    await expect.poll(() => row.locator('td').nth(4).textContent()).toContain('100.0% / 0.0% / 0.0%')
  })
})
