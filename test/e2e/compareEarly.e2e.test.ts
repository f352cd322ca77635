import type { Request } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { TOKEN_HEADER } from '../../src/shared/contract'
import { appSessions } from './harness'

const start = appSessions()

/**
 * The Compare view's script is loaded apart from the first screen's; its figures take the server
 * longest to work out, so they are asked for as the route changes, while the script still loads.
 */
describe('the Compare view asks for its figures while its script loads', () => {
  it('asks before the script arrives, asks again when a label changes meanwhile, and shows the later figures', async () => {
    const app = await start({ annotator: 'tester' })
    const { page } = app
    const db = app.server.ctx.workspace.db
    const datasetId = db.prepare('SELECT id FROM datasets ORDER BY id LIMIT 1').pluck().get() as number
    // A target others have labelled: a label of the tester's there scores the tester as a judge,
    // a row the table did not have.
    const targetId = db
      .prepare(
        `SELECT t.id FROM targets t JOIN labels l ON l.target_id = t.id
         WHERE t.dataset_id = ? AND l.verdict IN ('true', 'false') ORDER BY t.id LIMIT 1`,
      )
      .pluck()
      .get(datasetId) as number
    const annotatorId = db.prepare("SELECT id FROM annotators WHERE name = 'tester'").pluck().get() as number
    const scored = () =>
      computeDatasetMetrics(db, datasetId).humans.some((h) => h.annotatorId === annotatorId)
    expect(scored()).toBe(false)

    const asked: Request[] = []
    page.on('request', (r) => {
      if (r.url().endsWith('/api/call/metrics.compare')) asked.push(r)
    })
    // The view's script is held until the test lets it through.
    let release!: () => void
    const held = new Promise<void>((r) => {
      release = r
    })
    let scriptAsked = false
    await page.route('**/assets/CompareView-*.js', async (route) => {
      scriptAsked = true
      await held
      await route.continue()
    })

    // The page opened afresh on the Compare view: its script is not loaded yet (once the first
    // screen idles it is fetched ahead, so a route change from there would find it loaded).
    await page.evaluate(`history.replaceState(null, '', '#/compare/${datasetId}')`)
    await app.reload()
    await expect.poll(() => asked.length).toBe(1)
    expect(scriptAsked).toBe(true)
    await page.getByRole('status').filter({ hasText: 'Loading this view…' }).waitFor()

    // A label saved while the script is still on its way: the figures are asked for again.
    const saved = await page.evaluate(`fetch('/api/call/annotate.save', {
      method: 'POST',
      headers: { 'content-type': 'application/json', '${TOKEN_HEADER}': sessionStorage.getItem('factlab.token') },
      body: JSON.stringify({ targetId: ${targetId}, annotatorId: ${annotatorId}, verdict: 'true' }),
    }).then((r) => r.json())`)
    expect(saved).toMatchObject({ ok: true })
    expect(scored()).toBe(true)
    await expect.poll(() => asked.length).toBe(2)

    release()
    await page.getByTestId('judge-table').locator(`[data-row="human-${annotatorId}"]`).waitFor()
    // The view took the answer asked for early: it did not ask a third time.
    expect(asked.length).toBe(2)
  })
})

/**
 * Reopened, the view draws the figures it showed last without waiting for the server, and still
 * asks: the answer takes their place when it differs. Figures a change may have moved are never
 * drawn again: a label heard of while the view was closed makes the reopen wait for new ones.
 */
describe('the Compare view reopened', () => {
  it('shows the kept figures at once, waits after a label, and takes a change no event told of from its answer', async () => {
    const app = await start({ annotator: 'tester' })
    const { page } = app
    const db = app.server.ctx.workspace.db
    const datasetId = db.prepare('SELECT id FROM datasets ORDER BY id LIMIT 1').pluck().get() as number
    const [first, second] = db
      .prepare(
        `SELECT DISTINCT t.id FROM targets t JOIN labels l ON l.target_id = t.id
         WHERE t.dataset_id = ? AND l.verdict IN ('true', 'false') ORDER BY t.id LIMIT 2`,
      )
      .pluck()
      .all(datasetId) as number[]
    const tester = db.prepare("SELECT id FROM annotators WHERE name = 'tester'").pluck().get() as number
    const table = page.getByTestId('judge-table')
    const rowOf = (annotatorId: number) => table.locator(`[data-row="human-${annotatorId}"]`)
    const loading = page.getByRole('status').filter({ hasText: 'Loading the figures' })

    await page.evaluate(`location.hash = '#/compare/${datasetId}'`)
    await table.waitFor()
    expect(await rowOf(tester).count()).toBe(0)

    // From here the server's answers wait until the test lets each through.
    const held: (() => void)[] = []
    await page.route('**/api/call/metrics.compare', async (route) => {
      await new Promise<void>((r) => held.push(r))
      await route.continue()
    })
    const letThrough = () => {
      for (const go of held.splice(0)) go()
    }
    const away = async () => {
      await page.evaluate(`location.hash = '#/datasets'`)
      await page.getByTestId('compare-view').waitFor({ state: 'detached' })
    }
    const reopen = () => page.evaluate(`location.hash = '#/compare/${datasetId}'`)

    // Unchanged: the table is drawn while the view's question is still unanswered.
    await away()
    await reopen()
    await table.waitFor()
    await expect.poll(() => held.length).toBe(1)
    letThrough()

    // A label saved while the view is closed. The datasets list rereads on the same event, so its
    // call says the page has heard of the change.
    await away()
    const listed: string[] = []
    page.on('request', (r) => {
      if (r.url().endsWith('/api/call/datasets.list')) listed.push(r.url())
    })
    const saved = await page.evaluate(`fetch('/api/call/annotate.save', {
      method: 'POST',
      headers: { 'content-type': 'application/json', '${TOKEN_HEADER}': sessionStorage.getItem('factlab.token') },
      body: JSON.stringify({ targetId: ${first}, annotatorId: ${tester}, verdict: 'true' }),
    }).then((r) => r.json())`)
    expect(saved).toMatchObject({ ok: true })
    await expect.poll(() => listed.length).toBeGreaterThan(0)
    await reopen()
    // The old figures are not drawn: the view waits for the server's answer.
    await loading.waitFor()
    await expect.poll(() => held.length).toBe(1)
    expect(await table.count()).toBe(0)
    letThrough()
    await rowOf(tester).waitFor()

    // A label written without telling this page (as another process would): the reopen shows
    // the kept figures, and the answer brings the new person's row.
    await away()
    const late = ensureAnnotator(db, 'late').id
    db.prepare(
      "INSERT INTO labels (target_id, annotator_id, verdict, created_at, updated_at) VALUES (?, ?, 'false', '2026-01-01', '2026-01-01')",
    ).run(second, late)
    await reopen()
    await rowOf(tester).waitFor()
    await expect.poll(() => held.length).toBe(1)
    expect(await rowOf(late).count()).toBe(0)
    letThrough()
    await rowOf(late).waitFor()
  })
})
