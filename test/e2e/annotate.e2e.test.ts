import { describe, expect, it } from 'vitest'
import type { Workspace } from '../../src/main/app/workspace'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { appSessions } from './harness'
import { AnnotatePage } from './pages/annotate'

const start = appSessions()
const DEMO = 'Demo: WikiEval-style'

describe('annotate in the browser', () => {
  it('labels ten units by keyboard only, and all ten are there after a reload', async () => {
    const app = await start()
    const { page } = app
    await app.shot('datasets')
    const annotate = new AnnotatePage(page)
    await annotate.open(DEMO)
    const first = await annotate.focusedTargetId()
    // 1 = true, 2 = false, alternating; each label moves on, Enter jumps past labelled ones.
    const given: Record<number, string> = {}
    for (let i = 0; i < 10; i++) {
      const id = await annotate.focusedTargetId()
      const key = i % 3 === 2 ? '2' : '1'
      await page.keyboard.press(key)
      given[id] = key === '1' ? 'true' : 'false'
      await annotate.waitSaved()
      if ((await annotate.focusedTargetId()) === id) await page.keyboard.press('Enter')
      await expect.poll(() => annotate.focusedTargetId()).not.toBe(id)
    }
    expect(Object.keys(given)).toHaveLength(10)
    await expect.poll(() => annotate.saveState().textContent()).toBe('Saved ✓')
    await app.shot('annotate')

    const focusedBefore = await annotate.focusedTargetId()
    // The URL follows the focus once it settles; a reload before that returns to the URL's unit.
    await expect.poll(() => page.url()).toContain(`target=${focusedBefore}`)
    await app.reload()
    await annotate.units.first().waitFor()
    // The reload lands on the unit that had focus.
    expect(await annotate.focusedTargetId()).toBe(focusedBefore)
    const stored = app.server.ctx.workspace.db
      .prepare(
        `SELECT l.target_id AS id, l.verdict FROM labels l JOIN annotators a ON a.id = l.annotator_id
         WHERE a.name = 'tester' AND l.verdict IS NOT NULL`,
      )
      .all() as { id: number; verdict: string }[]
    expect(Object.fromEntries(stored.map((r) => [r.id, r.verdict]))).toEqual(given)
    await annotate.open(DEMO)
    await page.goto(`${app.server.origin}/#/annotate/1?target=${first}`)
    await expect.poll(() => annotate.focusedTargetId()).toBe(first)
    expect(await annotate.focused.getAttribute('data-verdict')).toBe('true')
  })

  it('keeps the variant being labelled in sight when the tabs do not all fit (1280 px)', async () => {
    const app = await start({ viewport: { width: 1280, height: 800 } })
    const { page } = app
    const annotate = new AnnotatePage(page)
    await annotate.open(DEMO)
    const tabs = page.getByRole('tablist', { name: 'Answer variant' })
    const fits = () =>
      tabs.evaluate((list) => {
        const box = list.getBoundingClientRect()
        const tab = list.querySelector('[aria-selected="true"]')?.getBoundingClientRect()
        return tab !== undefined && tab.left >= box.left && tab.right <= box.right
      })
    // The demo's three variants are wider than the answer pane at this size.
    expect(await tabs.evaluate((list) => list.scrollWidth > list.clientWidth)).toBe(true)
    for (const variant of ['ungrounded_answer', 'poor_answer', 'answer']) {
      await page.keyboard.press('v')
      await expect
        .poll(() => tabs.getByRole('tab', { selected: true }).textContent())
        .toMatch(new RegExp(`^${variant}`))
      await expect.poll(fits).toBe(true)
    }
  })

  it('asks before the page goes away while a label is not yet saved, and lets it go once saved', async () => {
    const app = await start()
    const { page } = app
    const annotate = new AnnotatePage(page)
    await annotate.open(DEMO)
    const target = await annotate.focusedTargetId()
    // The workspace is slow to answer: the label stays unacknowledged until released.
    let release: () => void = () => {}
    const released = new Promise<void>((r) => {
      release = r
    })
    await page.route('**/api/call/annotate.save', async (route) => {
      await released
      await route.continue()
    })
    const dialogs: string[] = []
    page.on('dialog', (d) => {
      dialogs.push(d.type())
      void d.dismiss()
    })
    await page.keyboard.press('1')
    await page.close({ runBeforeUnload: true })
    await expect.poll(() => dialogs).toEqual(['beforeunload'])
    // Staying keeps the page, and the label goes through once the workspace answers.
    expect(page.isClosed()).toBe(false)
    release()
    await annotate.waitSaved()
    const stored = app.server.ctx.workspace.db
      .prepare(
        `SELECT l.verdict FROM labels l JOIN annotators a ON a.id = l.annotator_id
         WHERE a.name = 'tester' AND l.target_id = ?`,
      )
      .get(target) as { verdict: string } | undefined
    expect(stored?.verdict).toBe('true')
    // Nothing left to save: the page closes without a question.
    await page.close({ runBeforeUnload: true })
    await expect.poll(() => page.isClosed()).toBe(true)
    expect(dialogs).toEqual(['beforeunload'])
  })

  it('attaches the selected text as evidence, highlights it, and undoes it with u', async () => {
    const app = await start()
    const { page } = app
    const annotate = new AnnotatePage(page)
    await annotate.open(DEMO)
    const target = await annotate.focusedTargetId()
    const selected = await annotate.select('candidate', 0, 24)
    await page.keyboard.press('e')
    await annotate.waitSaved()
    await expect.poll(() => annotate.highlighted('factlab-evidence')).toEqual([selected.trim()])
    await expect(annotate.focused.locator('.evidence li')).toBeTruthy()
    expect(await annotate.focused.locator('.evidence li').count()).toBe(1)
    const row = () =>
      app.server.ctx.workspace.db
        .prepare(
          `SELECT evidence FROM labels l JOIN annotators a ON a.id = l.annotator_id
           WHERE l.target_id = ? AND a.name = 'tester'`,
        )
        .get(target) as { evidence: string } | undefined
    expect(JSON.parse(row()!.evidence)).toEqual([
      { pane: 'candidate', start: 0, end: selected.trimEnd().length },
    ])
    // The alignment highlight marks a passage in each pane for the focused unit.
    expect((await annotate.highlighted('factlab-align')).length).toBeGreaterThan(0)
    await app.shot('annotate-evidence')

    await page.keyboard.press('1')
    await annotate.waitSaved()
    expect(await annotate.verdictOf(0)).toBe('true')
    await page.keyboard.press('u')
    await expect.poll(() => annotate.verdictOf(0)).toBe('')
    await annotate.expectFocusedIndex(0)
    await page.keyboard.press('u')
    await annotate.waitSaved()
    await expect.poll(() => annotate.highlighted('factlab-evidence')).toEqual([])
    await expect.poll(() => JSON.parse(row()!.evidence)).toEqual([])
  })

  it('writes a note with n and keeps it', async () => {
    const app = await start()
    const { page } = app
    const annotate = new AnnotatePage(page)
    await annotate.open(DEMO)
    await page.keyboard.press('n')
    const dialog = page.getByRole('dialog', { name: 'Note' })
    await dialog.getByLabel('Note').fill('The answer hedges on the date.')
    await app.shot('annotate-note')
    await page.keyboard.press('Control+Enter')
    await dialog.waitFor({ state: 'detached' })
    await annotate.waitSaved()
    expect(await annotate.focused.locator('.note').textContent()).toBe('The answer hedges on the date.')
    // Focus is back on the list: the next key labels.
    await page.keyboard.press('2')
    await annotate.waitSaved()
    expect(await annotate.verdictOf(0)).toBe('false')
  })

  it('lists every key on ? and closes the list with Escape', async () => {
    const app = await start()
    const { page } = app
    const annotate = new AnnotatePage(page)
    await annotate.open(DEMO)
    // The footer names the key that opens the list.
    expect(await page.locator('.key-help').textContent()).toContain('? all keys')
    await page.keyboard.press('?')
    const sheet = page.getByRole('dialog', { name: 'Keyboard' })
    await sheet.waitFor()
    const line = (label: string) => sheet.getByRole('row', { name: label })
    expect(await line('Next unit').locator('kbd').allTextContents()).toEqual(['j', '↓'])
    expect(await line('Verdict: Not clear').locator('kbd').allTextContents()).toEqual(['3'])
    expect(await line('Undo the last change').locator('kbd').allTextContents()).toEqual(['u', 'Ctrl+Z'])
    expect(await line('Previous variant of the answer').locator('kbd').allTextContents()).toEqual(['Shift+V'])
    await app.shot('annotate-keys')
    // Keys do not label while the list is open: the 1 below labels the first unit only, and the
    // second one after Escape does (had both labelled, the second unit would be labelled too).
    expect(await annotate.verdictOf(0)).toBe('')
    await page.keyboard.press('1')
    await page.keyboard.press('Escape')
    await sheet.waitFor({ state: 'detached' })
    await page.keyboard.press('1')
    await annotate.waitSaved()
    await annotate.expectFocusedIndex(1)
    expect(await annotate.verdictOf(0)).toBe('true')
    expect(await annotate.verdictOf(1)).toBe('')
  })

  it('opens a 10,000-word article and takes the eye to the passage a fact comes from', async () => {
    const app = await start()
    const { page } = app
    const { datasetId, targetId } = seedLongArticle(app.server.ctx.workspace)
    await page.goto(`${app.server.origin}/#/annotate/${datasetId}?target=${targetId}`)
    const annotate = new AnnotatePage(page)
    await annotate.units.first().waitFor()
    expect(
      await annotate.pane('reference').evaluate((el) => (el.textContent ?? '').split(/\s+/).length),
    ).toBeGreaterThan(10_000)
    await expect
      .poll(() => annotate.highlighted('factlab-align'))
      .toContainEqual(expect.stringContaining('Biscuit'))
    // The reference pane scrolled by itself to the aligned sentence, deep in the article.
    const scrolled = await page.locator('.pane-reference .pane-scroll').evaluate((el) => el.scrollTop)
    expect(scrolled).toBeGreaterThan(2000)
    await app.shot('annotate-long-article')
    await page.keyboard.press('1')
    await annotate.waitSaved()
    await page.keyboard.press('k')
    await annotate.expectFocusedIndex(0)
  })

  it('hides judge verdicts in blind mode until I have labelled the unit', async () => {
    const app = await start()
    const { page } = app
    const annotate = new AnnotatePage(page)
    await annotate.open(DEMO)
    const target = await annotate.focusedTargetId()
    addJudgeVerdict(app.server.ctx.workspace, target, 'false', 'The answer never mentions infrared.')
    await page.reload()
    await annotate.units.first().waitFor()
    await annotate.focused.getByText('Judge verdicts stay hidden').waitFor()
    expect(await page.getByText('never mentions infrared').count()).toBe(0)
    await page.keyboard.press('1')
    await annotate.waitSaved()
    await page.keyboard.press('k')
    await annotate.focused.getByText('never mentions infrared').waitFor()
    await app.shot('annotate-judge-revealed')
  })
})

/** A dataset with one long article whose only mention of "Biscuit" is near its end. */
function seedLongArticle(ws: Workspace): { datasetId: number; targetId: number } {
  const filler = (i: number) =>
    `Paragraph ${i} describes the coastline, the tides and the weather of the northern bay in some detail. ` +
    'Fishing boats leave at dawn and return before the evening storms roll in from the sea.\n\n'
  let article = ''
  for (let i = 0; i < 340; i++) article += filler(i)
  article += "The lighthouse keeper's cat was named Biscuit and slept on the lamp room stairs.\n\n"
  for (let i = 340; i < 360; i++) article += filler(i)
  const ds = createDataset(ws.db, { name: 'Long article', labelSchema: FAAF_SCHEMA })
  const item = ws.content.insertItem(
    ds.id,
    { extId: 'long-1', question: 'What was the cat called?', reference: article },
    0,
  )
  const cand = ws.content.insertCandidate(item, {
    variant: 'answer',
    text: 'The cat of the lighthouse keeper was called Biscuit.',
  })
  const unit = ws.content.insertUnit(item, {
    kind: 'fact',
    text: "The lighthouse keeper's cat was called Biscuit.",
  })
  return { datasetId: ds.id, targetId: ws.content.targetId(unit, cand)! }
}

function addJudgeVerdict(ws: Workspace, targetId: number, verdict: string, reason: string): void {
  const run = ws.db
    .prepare(
      `INSERT INTO runs (kind, dataset_id, provider, model, method, status, created_at)
       SELECT 'judge', dataset_id, 'openai', 'gpt-test', 'faaf-tf', 'done', '2026-01-01' FROM targets WHERE id = ?`,
    )
    .run(targetId)
  ws.db
    .prepare(`INSERT INTO verdicts (run_id, target_id, status, verdict, reason) VALUES (?, ?, 'ok', ?, ?)`)
    .run(run.lastInsertRowid, targetId, verdict, reason)
}
