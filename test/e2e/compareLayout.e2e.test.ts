import { describe, expect, it } from 'vitest'
import type { Db } from '../../src/main/store/connection'
import { appSessions } from './harness'

const start = appSessions()

/** Three imported runs with figures, and one that failed with nothing but errors. */
function seed(db: Db): { failed: number } {
  const targets = db
    .prepare('SELECT id FROM targets WHERE dataset_id = 1 ORDER BY id')
    .pluck()
    .all() as number[]
  const insRun = db.prepare(
    `INSERT INTO runs (kind, dataset_id, provider, model, method, status, error, created_at, started_at, finished_at)
     VALUES ('imported', 1, 'imported', ?, 'faaf-tf', ?, ?, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z')`,
  )
  const insVerdict = db.prepare(
    'INSERT INTO verdicts (run_id, target_id, status, verdict) VALUES (?, ?, ?, ?)',
  )
  const insCall = db.prepare(
    `INSERT INTO run_calls (run_id, call_key, status, latency_ms, prompt_tokens, completion_tokens, cost)
     VALUES (?, 'c0', 'done', 800, 12000, 900, 0.05)`,
  )
  for (const [k, model] of [
    'a-rather-long-judge-model-name',
    'another-judge-with-a-long-name',
    'third',
  ].entries()) {
    const run = Number(insRun.run(model, 'done', null).lastInsertRowid)
    insCall.run(run)
    for (const [i, t] of targets.entries()) insVerdict.run(run, t, 'ok', (i + k) % 3 ? 'true' : 'false')
  }
  const failed = Number(
    insRun.run(
      'broken',
      'failed',
      'Every call failed (12 targets, no verdict). First error — server error: 500',
    ).lastInsertRowid,
  )
  for (const t of targets) insVerdict.run(failed, t, 'error', null)
  return { failed }
}

describe('compare layout', () => {
  it('fits a 1280 px window with the Cost column in view, and lists a failed run apart with its reason', async () => {
    const app = await start({ viewport: { width: 1280, height: 800 } })
    const { page } = app
    const { failed } = seed(app.server.ctx.workspace.db)
    await page.evaluate(`location.hash = '#/compare/1'`)
    const table = page.getByTestId('judge-table')
    await table.waitFor()
    await app.shot('compare-1280')
    const cost = table.getByRole('columnheader', { name: 'Cost', exact: true })
    const box = await cost.boundingBox()
    expect(box).not.toBeNull()
    expect(box!.x).toBeGreaterThanOrEqual(0)
    expect(box!.x + box!.width).toBeLessThanOrEqual(1280)
    // The page itself does not scroll sideways.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280)
    // Exports are one menu: the page head is one row.
    expect(await page.getByRole('button', { name: /^Export/ }).count()).toBe(1)
    const leftOut = page.getByTestId('left-out')
    await leftOut.getByText('broken').waitFor()
    expect(await leftOut.textContent()).toContain('the run failed: Every call failed')
    // The failed run is in no chart and no McNemar cell, and not the confusion matrix's default.
    expect(
      await page
        .getByTestId('mcnemar')
        .locator('th', { hasText: `#${failed}` })
        .count(),
    ).toBe(0)
    const judgeSelect = page.locator('.cmp-confusion select')
    expect(await judgeSelect.inputValue()).not.toBe(String(failed))
    expect(await judgeSelect.locator('option', { hasText: 'measured nothing' }).count()).toBe(1)
    await app.shot('compare-1280')
  })

  it('fits a 1024 px window: nothing scrolls sideways, the secondary figures folded under their neighbours', async () => {
    const app = await start({ viewport: { width: 1024, height: 768 } })
    const { page } = app
    seed(app.server.ctx.workspace.db)
    await page.evaluate(`location.hash = '#/compare/1'`)
    const table = page.getByTestId('judge-table')
    await table.waitFor()
    await page.getByTestId('variant-bars').waitFor()
    await app.shot('compare-1024')
    const widths = (sel: string) =>
      page.evaluate(
        `(() => { const el = ${sel === 'page' ? 'document.documentElement' : `document.querySelector(${JSON.stringify(sel)})`}; return [el.scrollWidth, el.clientWidth] })()`,
      ) as Promise<[number, number]>
    // The window, the view, and the table's own frame (which would scroll inside the view).
    for (const sel of ['page', '.page', '.table-frame:has([data-testid="judge-table"])']) {
      const [scroll, client] = await widths(sel)
      expect(scroll, sel).toBeLessThanOrEqual(client!)
    }
    // Every figure is still there: the cost and its calls, N/A and errors under n, accuracy under the rate.
    const row = table.locator('tbody tr', { hasText: 'third' })
    expect(await row.locator('[data-metric="calls"]').textContent()).toBe('1 call')
    expect(await row.locator('[data-metric="tokens"]').textContent()).toBe('12,900 tokens')
    expect(await row.locator('[data-metric="na"]').textContent()).toMatch(/^N\/A 0 \([\d.]+%\)$/)
    expect(await row.locator('[data-metric="accuracy"]').textContent()).toMatch(/^accuracy \d+\.\d%$/)
    const last = table.getByRole('columnheader', { name: 'Cost / 1,000 targets' })
    const box = await last.boundingBox()
    expect(box!.x + box!.width).toBeLessThanOrEqual(1024)
    // Wider again, the columns come back.
    await page.setViewportSize({ width: 1440, height: 900 })
    await table.getByRole('columnheader', { name: 'Tokens', exact: true }).waitFor()
    // Grouped as in the folded cell and everywhere else, not 12900.
    expect(await row.locator('[data-metric="tokens"]').textContent()).toBe('12,900')
    await app.shot('compare-1440')
  })

  it('says what fills each empty panel and runs the lexical baseline from there', async () => {
    const app = await start({ viewport: { width: 1280, height: 800 } })
    const { page } = app
    // The demo comes with judge runs; without them every panel is empty (verdicts go with their runs).
    app.server.ctx.workspace.db.prepare('DELETE FROM runs').run()
    await page.evaluate(`location.hash = '#/compare/1'`)
    const empties = page.getByTestId('cmp-empty')
    await empties.first().waitFor()
    // Error rate by variant, cost, confusion, McNemar, disagreements, interval width.
    await expect.poll(() => empties.count()).toBeGreaterThanOrEqual(5)
    await app.shot('compare-empty')
    await empties.first().getByRole('button', { name: 'Run the lexical baseline' }).click()
    await page.getByTestId('variant-bars').waitFor()
    const runs = app.server.ctx.workspace.db
      .prepare("SELECT provider, method, status FROM runs WHERE kind = 'judge'")
      .all()
    expect(runs).toEqual([{ provider: 'lexical', method: 'lexical', status: 'done' }])
  })
})
