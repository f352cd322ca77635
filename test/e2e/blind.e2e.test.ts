import { describe, expect, it } from 'vitest'
import { appSessions } from './harness'
import { AnnotatePage } from './pages/annotate'
import { BlindWatch } from './pages/blindWatch'

const start = appSessions()
const DEMO = 'Demo: WikiEval-style'

describe('blind mode in the browser', () => {
  it('walks every view and action without showing another verdict, a judge verdict or a dispute on a unit I have not labelled', async () => {
    const app = await start()
    const { page } = app
    const db = app.server.ctx.workspace.db
    // A judge has answered every target of the demo, with a reason no one could miss.
    const run = db
      .prepare(
        `INSERT INTO runs (kind, dataset_id, provider, model, method, status, created_at)
         VALUES ('judge', 1, 'openai', 'gpt-secret', 'faaf-tf', 'done', '2026-01-01')`,
      )
      .run()
    db.prepare(
      `INSERT INTO verdicts (run_id, target_id, status, verdict, reason)
       SELECT ?, id, 'ok', 'false', 'SECRET judge reason' FROM targets WHERE dataset_id = 1`,
    ).run(run.lastInsertRowid)
    const me = () =>
      (db.prepare("SELECT id FROM annotators WHERE name = 'tester'").get() as { id: number }).id
    const watch = new BlindWatch(page, db, me)
    const annotate = new AnnotatePage(page)
    const nothingShownOnFocused = async () => {
      await annotate.focused.getByText('Judge verdicts stay hidden').waitFor()
      expect(await annotate.focused.locator('.others').count()).toBe(0)
      expect(await annotate.focused.getByText('disputed').count()).toBe(0)
      expect(await page.getByText('SECRET judge reason').count()).toBe(0)
    }

    // The datasets list keeps the dataset's dispute count back too (the demo has disputes).
    expect(
      (db.prepare('SELECT COUNT(*) AS n FROM disputed_targets WHERE dataset_id = 1').get() as { n: number })
        .n,
    ).toBeGreaterThan(0)
    await page.getByRole('article', { name: DEMO }).waitFor()
    expect(
      await page
        .getByRole('article', { name: DEMO })
        .getByText(/disputed/)
        .count(),
    ).toBe(0)
    await annotate.open(DEMO)
    await nothingShownOnFocused()
    const first = await annotate.focusedTargetId()

    // Label: this unit's others appear (so the watch would see them if they leaked elsewhere).
    await page.keyboard.press('1')
    await annotate.waitSaved()
    await page.keyboard.press('k')
    await expect.poll(() => annotate.focusedTargetId()).toBe(first)
    await annotate.focused.getByText('alex').waitFor()
    await annotate.focused.getByText('SECRET judge reason').waitFor()

    // Undo: unlabelled again, hidden again, in the page and in main's quiet refresh.
    await page.keyboard.press('u')
    await annotate.waitSaved()
    await expect.poll(() => annotate.focusedTargetId()).toBe(first)
    await nothingShownOnFocused()
    await expect
      .poll(() =>
        db.prepare('SELECT verdict FROM labels WHERE target_id = ? AND annotator_id = ?').get(first, me()),
      )
      .toEqual({ verdict: null })

    // Variant switch and item navigation.
    await page.keyboard.press('v')
    await nothingShownOnFocused()
    await page.keyboard.press(']')
    await expect.poll(() => annotate.focusedTargetId()).not.toBe(first)
    await nothingShownOnFocused()
    await page.keyboard.press('[')
    await nothingShownOnFocused()

    // The items list, filtered to disputes and to judge disagreements: nothing of mine is disputed.
    await page.goto(`${app.server.origin}/#/items/1`)
    // The view loads on first use: wait for its own list call, not for the sidebar's picker.
    await page.getByRole('combobox', { name: 'Variant' }).waitFor()
    await expect
      .poll(async () => {
        await watch.settle()
        return watch.seen.includes('datasets.items')
      })
      .toBe(true)

    // Adjudication: the queue lists no dispute I have not labelled, and says how many it keeps back.
    await page.goto(`${app.server.origin}/#/agreement/1`)
    await page
      .getByTestId('agr-blind')
      .getByText(/Blind mode keeps \d+ disputes/)
      .waitFor()
    expect(await page.getByTestId('agr-verdict').count()).toBe(0)
    // The empty list does not claim there is nothing in dispute.
    await page.getByText('Nothing you can adjudicate yet').waitFor()
    expect(await page.getByText('no open disagreements').count()).toBe(0)

    // I label one disputed target: it joins my queue, but I may not decide it myself.
    const disputed = (
      db.prepare('SELECT target_id AS id FROM disputed_targets WHERE dataset_id = 1 LIMIT 1').get() as {
        id: number
      }
    ).id
    await page.goto(`${app.server.origin}/#/annotate/1?target=${disputed}`)
    await expect.poll(() => annotate.focusedTargetId()).toBe(disputed)
    await nothingShownOnFocused()
    await page.keyboard.press('1')
    await annotate.waitSaved()
    await page.goto(`${app.server.origin}/#/agreement/1`)
    await expect.poll(() => page.getByTestId('queue-entry').count()).toBe(1)
    await page.getByTestId('agr-refusal').getByText('You labelled this target yourself').waitFor()
    // The whole list is a dead end for me, and the view says so before I try.
    await page.getByTestId('queue-all-mine').waitFor()
    // The keys reach main, which refuses too.
    await page.keyboard.press('1')
    await page.getByRole('status').getByText('You labelled this target yourself').waitFor()
    expect(db.prepare('SELECT COUNT(*) AS n FROM gold').get()).toEqual({ n: 0 })

    // Compare: the disagreement list and the label-next list keep to what I labelled.
    await page.goto(`${app.server.origin}/#/compare/1`)
    // Its own lists, not a heading the sidebar may show before the view has loaded.
    await page.getByRole('heading', { name: 'Disagreements with gold' }).waitFor()
    await watch.settle()
    await app.shot('blind-walk')

    expect(watch.leaks).toEqual([])
    for (const call of ['annotate.open', 'annotate.save', 'datasets.items', 'agreement.queue'])
      expect(watch.seen).toContain(call)
  })
})
