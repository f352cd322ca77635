import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { appSessions } from './harness'

const start = appSessions()

/**
 * Holds every request of one call until the test releases it, so the view's waiting state is
 * on screen for as long as the test looks at it (no clock involved).
 */
async function hold(page: Page, call: string): Promise<{ arrived: Promise<void>; release(): void }> {
  let release!: () => void
  const gate = new Promise<void>((r) => {
    release = r
  })
  let arrive!: () => void
  const arrived = new Promise<void>((r) => {
    arrive = r
  })
  await page.route(`**/api/call/${call}`, async (route) => {
    arrive()
    await gate
    await route.continue()
  })
  return { arrived, release }
}

function datasetIdOf(app: Awaited<ReturnType<ReturnType<typeof appSessions>>>): number {
  return (
    app.server.ctx.workspace.db.prepare('SELECT id FROM datasets ORDER BY id LIMIT 1').get() as { id: number }
  ).id
}

/** Opens a view with its call held: it says what it loads until the answer comes, then shows it. */
async function expectLoading(page: Page, hash: string, calls: string[], text: string): Promise<void> {
  const held = await Promise.all(calls.map((c) => hold(page, c)))
  await page.evaluate(`location.hash = '${hash}'`)
  await Promise.all(held.map((h) => h.arrived))
  const loading = page.getByRole('status').filter({ hasText: text })
  await loading.waitFor()
  expect(await loading.getAttribute('aria-busy')).toBe('true')
  for (const h of held) h.release()
  await loading.waitFor({ state: 'detached' })
  for (const c of calls) await page.unroute(`**/api/call/${c}`)
}

describe('every view says what it is loading', () => {
  it('Agreement, Compare, Project, Units, Judges and Datasets show a loading state until their data arrives', async () => {
    const app = await start()
    const { page } = app
    const id = datasetIdOf(app)

    const agreement = await hold(page, 'agreement.summary')
    await page.evaluate(`location.hash = '#/agreement/${id}'`)
    await agreement.arrived
    const waiting = page.getByRole('status').filter({ hasText: 'Loading agreement…' })
    await waiting.waitFor()
    // One loading state at both widths people use, for the record.
    await page.setViewportSize({ width: 1024, height: 768 })
    await app.shot('loading-agreement-1024')
    await page.setViewportSize({ width: 1440, height: 900 })
    await app.shot('loading-agreement-1440')
    agreement.release()
    await waiting.waitFor({ state: 'detached' })
    await page.unroute('**/api/call/agreement.summary')
    // What arrived is on screen: the agreement summary, not an empty page.
    await expect.poll(() => page.locator('.agr-view').textContent()).toMatch(/α|κ/)

    await expectLoading(page, `#/compare/${id}`, ['metrics.compare'], 'Loading the figures…')
    await page.getByTestId('compare-summary').waitFor()
    await expectLoading(page, `#/project/${id}`, ['projects.dashboard'], 'Loading the project…')
    await page.getByRole('form', { name: 'Plan' }).waitFor()
    await expectLoading(page, `#/units/${id}`, ['units.list'], 'Loading units…')
    await page.getByRole('heading', { name: 'Units' }).waitFor()
    await expectLoading(page, '#/judges', ['judges.configs'], 'Loading judge configs…')
    // The window already knows the datasets' names (its sidebar): they are drawn at once, each
    // saying its progress is being counted until the list's answer comes.
    const list = await hold(page, 'datasets.list')
    await page.evaluate(`location.hash = '#/datasets'`)
    await list.arrived
    const counting = page
      .locator('article.dataset-card[aria-busy="true"]')
      .filter({ hasText: 'Counting progress…' })
    await counting.first().waitFor()
    list.release()
    await counting.first().waitFor({ state: 'detached' })
    await page.unroute('**/api/call/datasets.list')
    await page.locator('article.dataset-card:not([aria-busy])').first().waitFor()
  })

  it('Items shows placeholder rows, not "…", until its first page arrives', async () => {
    const app = await start()
    const { page } = app
    const id = datasetIdOf(app)
    const items = await hold(page, 'datasets.items')
    await page.evaluate(`location.hash = '#/items/${id}'`)
    await items.arrived
    const skeleton = page.getByTestId('items-skeleton')
    await skeleton.waitFor()
    expect(await skeleton.locator('.skeleton-row').count()).toBeGreaterThan(3)
    expect(await page.getByRole('heading', { level: 1 }).locator('..').textContent()).toContain(
      'Loading items…',
    )
    expect(await page.locator('.items-table').textContent()).not.toContain('…')
    items.release()
    await skeleton.waitFor({ state: 'detached' })
    await page.locator('.items-table .tbody .tr:not(.skeleton-row)').first().waitFor()
    expect(await page.locator('.items-table .skeleton').count()).toBe(0)
  })

  it('a failed load says what could not be loaded and why, and Try again loads it', async () => {
    const app = await start()
    const { page } = app
    const id = datasetIdOf(app)
    await page.route('**/api/call/agreement.summary', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ ok: false, error: { code: 'unavailable', message: 'The workspace is busy' } }),
      }),
    )
    await page.evaluate(`location.hash = '#/agreement/${id}'`)
    const failed = page
      .getByRole('alert')
      .filter({ hasText: 'Could not load agreement: The workspace is busy' })
    await failed.waitFor()
    await page.unroute('**/api/call/agreement.summary')
    await failed.getByRole('button', { name: 'Try again' }).click()
    await failed.waitFor({ state: 'detached' })
    await expect.poll(() => page.locator('.agr-view').textContent()).toMatch(/α|κ/)
  })
})
