import type { Request } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
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
