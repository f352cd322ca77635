import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { Workspace } from '../../src/main/app/workspace'
import { saveGuidelines } from '../../src/main/guidelines/guidelines'
import { createRuns } from '../../src/main/runs/create'
import { writeVerdicts } from '../../src/main/verdicts/write'
import { appSessions } from './harness'
import { AnnotatePage } from './pages/annotate'

const start = appSessions()
const NARROW = { width: 1024, height: 768 }

/** Page-side geometry, as source text: the test project compiles without the DOM library. */
const overlaps = (page: Page, a: string, b: string) =>
  page.evaluate(`(() => {
    const r = document.querySelector(${JSON.stringify(a)}).getBoundingClientRect()
    const s = document.querySelector(${JSON.stringify(b)}).getBoundingClientRect()
    return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom
  })()`)

const inside = (page: Page, inner: string, outer: string) =>
  page.evaluate(`(() => {
    const o = document.querySelector(${JSON.stringify(outer)}).getBoundingClientRect()
    return [...document.querySelectorAll(${JSON.stringify(inner)})].every((el) => {
      const r = el.getBoundingClientRect()
      // A hidden part (the word count of a narrow pane) takes no room; a cut-off text is no fit.
      if (r.width === 0) return true
      return r.left >= o.left - 0.5 && r.right <= o.right + 0.5 && el.scrollWidth <= el.clientWidth + 1
    })
  })()`)

const firstDataset = (ws: Workspace) =>
  ws.db.prepare('SELECT id FROM datasets ORDER BY id LIMIT 1').pluck().get() as number

describe('Annotate at 1024 px', () => {
  it('a notice leaves the item navigation free and goes once an undo makes it untrue', async () => {
    const app = await start({ viewport: NARROW })
    const ws = app.server.ctx.workspace
    const datasetId = firstDataset(ws)
    const tester = ws.db.prepare("SELECT id FROM annotators WHERE name = 'tester'").pluck().get() as number
    const item = ws.db
      .prepare('SELECT id FROM items WHERE dataset_id = ? ORDER BY position LIMIT 1')
      .pluck()
      .get(datasetId) as number
    const targets = ws.db
      .prepare('SELECT id FROM targets WHERE item_id = ? ORDER BY id')
      .pluck()
      .all(item) as number[]
    // Everything of the first item but its last target is labelled already.
    for (const t of targets.slice(0, -1))
      ws.labels.save({ targetId: t, annotatorId: tester, verdict: 'true' })
    const a = new AnnotatePage(app.page)
    await app.page.evaluate(`location.hash = '#/annotate/${datasetId}?target=${targets.at(-1)}'`)
    await a.focused.waitFor()
    await app.page.keyboard.press('1')
    const notice = app.page.getByRole('status').filter({ hasText: 'Every unit of this item is labelled' })
    await notice.waitFor()
    expect(await overlaps(app.page, '.notice', '.crumbs')).toBe(false)
    await app.shot('qa-notice-1024')
    await app.page.keyboard.press('u')
    await expect.poll(() => notice.count()).toBe(0)
  })

  it('verdicts, the diff switch and variant names fit and read as the CLI writes them', async () => {
    const app = await start({ viewport: NARROW })
    const a = new AnnotatePage(app.page)
    await a.open('Demo: WikiEval-style')
    await app.page.keyboard.press('3')
    await a.waitSaved()
    await app.page.keyboard.press('k')
    // "Not clear" sits whole in its unit; the unit list never scrolls sideways.
    expect(await inside(app.page, '.unit .pill', '.unit-list')).toBe(true)
    expect(
      await app.page.evaluate(
        `(() => { const l = document.querySelector('.unit-list'); return l.scrollWidth <= l.clientWidth })()`,
      ),
    ).toBe(true)
    await app.shot('qa-fit-1024')
    expect(await inside(app.page, '.pane-reference .pane-head > *', '.pane-reference .pane-head')).toBe(true)
    const tabs = app.page.getByRole('tablist', { name: 'Answer variant' })
    expect(await tabs.getByRole('tab').allTextContents()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^poor_answer/),
        expect.stringMatching(/^ungrounded_answer/),
      ]),
    )
    await app.shot('qa-fit-1024')
  })

  it('the guidelines prompt before a first label takes the keyboard: Enter confirms, then keys label', async () => {
    const app = await start({ viewport: NARROW })
    const ws = app.server.ctx.workspace
    const datasetId = firstDataset(ws)
    saveGuidelines(ws.db, datasetId, '# Rules\n\nLabel **true** only if the answer states it.')
    const a = new AnnotatePage(app.page)
    await app.page.evaluate(`location.hash = '#/annotate/${datasetId}'`)
    const gate = app.page.getByRole('dialog', { name: 'Guidelines' })
    await gate.waitFor()
    await expect
      .poll(() =>
        gate
          .getByRole('button', { name: 'I have read the guidelines' })
          .evaluate((b) => b === b.ownerDocument.activeElement),
      )
      .toBe(true)
    await app.page.keyboard.press('Enter')
    await gate.waitFor({ state: 'detached' })
    const target = await a.focusedTargetId()
    await app.page.keyboard.press('1')
    await expect.poll(() => app.page.locator(`#unit-${target}`).getAttribute('data-verdict')).toBe('true')
  })
})

describe('Improve (RAI) in the Judges view', () => {
  /** A finished DCR run on the demo's first answers: one sentence inconsistent, one without a verdict. */
  function dcrRun(ws: Workspace, datasetId: number, withInconsistent: boolean): number {
    const cands = ws.db
      .prepare(
        'SELECT c.id, c.item_id FROM candidates c JOIN items i ON i.id = c.item_id WHERE i.dataset_id = ? ORDER BY c.id LIMIT 2',
      )
      .all(datasetId) as { id: number; item_id: number }[]
    const targets = cands.map((c) => {
      const unit = ws.content.insertUnit(c.item_id, {
        kind: 'sentence',
        text: `Sentence of ${c.id}.`,
        candidateId: c.id,
      })
      return ws.db.prepare('SELECT id FROM targets WHERE unit_id = ?').pluck().get(unit) as number
    })
    const [runId] = createRuns(ws.db, {
      datasetId,
      provider: 'openai',
      model: 'gpt-fake',
      baseUrl: 'http://127.0.0.1:9/v1',
      method: 'dcr',
    })
    writeVerdicts(
      ws.db,
      runId!,
      [
        {
          targetId: targets[0]!,
          status: withInconsistent ? 'ok' : 'na',
          verdict: withInconsistent ? 'false' : null,
        },
        {
          targetId: targets[1]!,
          status: withInconsistent ? 'na' : 'ok',
          verdict: withInconsistent ? null : 'true',
        },
      ],
      null,
    )
    ws.db.prepare("UPDATE runs SET status = 'done' WHERE id = ?").run(runId)
    return runId!
  }

  const runCount = (ws: Workspace) => ws.db.prepare('SELECT COUNT(*) FROM runs').pluck().get() as number

  it('asks for the rounds and says what it will call and add before it starts', async () => {
    const app = await start()
    const ws = app.server.ctx.workspace
    const datasetId = firstDataset(ws)
    const runId = dcrRun(ws, datasetId, true)
    await app.page.evaluate(`location.hash = '#/judges/${datasetId}'`)
    await app.page.getByTestId(`run-${runId}`).getByRole('button', { name: 'Improve (RAI)…' }).click()
    const dialog = app.page.getByRole('dialog', { name: `Improve run #${runId} (RAI)` })
    const plan = dialog.getByTestId('improve-plan')
    await plan.waitFor()
    expect(await plan.textContent()).toContain(
      'Round 1 rewrites 1 answer with a sentence judged inconsistent',
    )
    expect(await plan.textContent()).toContain('new variant answer+rai1')
    expect(await plan.textContent()).toContain('1 sentence the judge gave no verdict on is not inconsistent')
    // Nothing has started while the person reads.
    const before = runCount(ws)
    await dialog.getByLabel('Rounds').selectOption('3')
    expect(await plan.textContent()).toContain('Rounds 2 to 3 rewrite only what is still inconsistent')
    await app.shot('qa-rai-dialog')
    expect(runCount(ws)).toBe(before)
    await dialog.getByRole('button', { name: 'Rewrite 1 answer (up to 3 rounds)' }).click()
    await dialog.waitFor({ state: 'detached' })
    const improve = ws.db.prepare("SELECT config FROM runs WHERE kind = 'improve'").pluck().get() as string
    expect(JSON.parse(improve)).toMatchObject({ sourceRunId: runId, rounds: 3 })
  })

  it('a run whose only gap is an N/A sentence offers nothing to start', async () => {
    const app = await start()
    const ws = app.server.ctx.workspace
    const datasetId = firstDataset(ws)
    const runId = dcrRun(ws, datasetId, false)
    await app.page.evaluate(`location.hash = '#/judges/${datasetId}'`)
    await app.page.getByTestId(`run-${runId}`).getByRole('button', { name: 'Improve (RAI)…' }).click()
    const dialog = app.page.getByRole('dialog', { name: `Improve run #${runId} (RAI)` })
    await expect
      .poll(() => dialog.getByTestId('improve-nothing').textContent())
      .toContain('Nothing to improve')
    expect(await dialog.getByRole('button', { name: /^Rewrite/ }).count()).toBe(0)
    await dialog.locator('.modal-foot').getByRole('button', { name: 'Close' }).click()
    expect(ws.db.prepare("SELECT COUNT(*) FROM runs WHERE kind = 'improve'").pluck().get()).toBe(0)
  })
})
