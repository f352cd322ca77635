import { dirname, join } from 'node:path'
import type { Locator } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { importFile } from '../../src/main/import'
import { setControls } from '../../src/main/projects/controls'
import { exportPackage } from '../../src/main/projects/packageExport'
import { setPlan } from '../../src/main/projects/plan'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { appSessions } from './harness'

const start = appSessions()
const WIKIEVALFACTS = join(__dirname, '../fixtures/import/wikievalfacts.csv')

/** Whether a box shows all of its text (no ellipsis, no clipping). */
const wholeText = (l: Locator) => l.evaluate((e) => e.scrollWidth <= e.clientWidth)

describe('the Project screen of a project started from a released dataset, at 1024 px', () => {
  it('counts people only, says what it leaves out and why, never shows made-up time or cost, and reads controls by item and unit', async () => {
    const app = await start({ demo: false, annotator: 'lead', viewport: { width: 1024, height: 768 } })
    const { page } = app
    const ws = app.server.ctx.workspace
    // WikiEvalFacts as released: its own labels (25 of 27 targets) come under the source "wikievalfacts".
    const { datasetId } = await importFile(ws, { file: WIKIEVALFACTS })
    setPlan(ws.db, {
      datasetId,
      k: 2,
      policy: 'fixed',
      seed: 7,
      annotators: [
        { name: 'ana', hourlyRate: 30 },
        { name: 'ben', hourlyRate: 25 },
      ],
    })
    const targets = (ws.db.prepare('SELECT id FROM targets ORDER BY id').all() as { id: number }[]).map(
      (t) => t.id,
    )
    const [control, ...work] = targets as [number, ...number[]]
    setControls(ws.db, datasetId, { fromGold: [], answers: [{ targetId: control, verdict: 'true' }] }, 'now')
    const ana = ensureAnnotator(ws.db, 'ana').id
    const ben = ensureAnnotator(ws.db, 'ben').id
    // ana labels in the app (a few seconds each), and answers the control; ben from the CLI (no clock).
    for (const t of work.slice(0, 2))
      ws.labels.save({ targetId: t, annotatorId: ana, verdict: 'true', seconds: 2.9 })
    ws.labels.save({ targetId: control, annotatorId: ana, verdict: 'true', seconds: 2 })
    for (const t of work.slice(0, 3)) ws.labels.save({ targetId: t, annotatorId: ben, verdict: 'false' })

    await page.evaluate(`location.hash = '#/project/${datasetId}'`)
    const progress = page.getByTestId('project-progress')
    await progress.waitFor()
    // 26 work targets × k = 2; the source's 25 labels are not among the 5 placed.
    await expect.poll(() => progress.textContent()).toContain('5 of 52 labels (9.6%)')
    expect(await progress.textContent()).toContain('6 s of active time on 2 of 5 labels')
    expect(await progress.textContent()).not.toContain('0 min')
    await app.shot('project-figures-1024-top')

    const people = page.getByTestId('project-annotators')
    expect(
      await people
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-annotator'))),
    ).toEqual(['ana', 'ben'])
    const cell = (who: string, id: string) =>
      people.locator(`tr[data-annotator="${who}"] [data-testid="${id}"]`)
    expect(await cell('ben', 'active-time').textContent()).toBe('no time recorded')
    // The cost beside it is unknown, not $0.00, and says why when pointed at.
    expect(await cell('ben', 'cost').textContent()).toBe('—')
    expect(await cell('ben', 'cost').locator('span').getAttribute('title')).toMatch(/no active time/)
    expect(await cell('ana', 'active-time').textContent()).toBe('6 s')
    expect(await cell('ana', 'cost').textContent()).toBe('$0.05')
    const left = page.getByTestId('not-counted')
    expect(await left.textContent()).toContain('ana: 1 on controls')
    expect(await left.textContent()).toContain('wikievalfacts (25 labels imported with the dataset)')
    expect(
      await page.getByRole('table', { name: 'Pairwise agreement' }).locator('tbody tr').allTextContents(),
    ).toEqual([expect.stringMatching(/^ana · ben/)])

    // At 1024 px the Assignment box shows its whole choice. (A string: tests are typed without the DOM.)
    await page.getByRole('form', { name: 'Plan' }).getByLabel('Assignment').waitFor()
    const fits = await page.evaluate(`(() => {
      const select = document.querySelector('form[aria-label="Plan"] select')
      const style = getComputedStyle(select)
      const ctx = document.createElement('canvas').getContext('2d')
      ctx.font = style.font
      const text = ctx.measureText(select.options[select.selectedIndex].text).width
      // What the box leaves for text: its width less padding and the drop-down arrow.
      return text <= select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20
    })()`)
    expect(fits).toBe(true)

    // Controls: a line that cannot be read is named at once; item,variant,unit,verdict lines are taken.
    const controls = page.getByRole('region', { name: 'Controls' })
    const answers = controls.getByLabel('Control answers', { exact: true })
    await answers.fill('hello world')
    await expect
      .poll(() => controls.getByRole('alert').textContent())
      .toContain('line 1 “hello world”: 1 value where 4 (or 2) are expected')
    expect(await controls.getByRole('button', { name: 'Mark these as controls' }).isDisabled()).toBe(true)
    await answers.fill('item,variant,unit,verdict\n2,poor_answer,1,false')
    await controls.getByRole('button', { name: 'Mark these as controls' }).click()
    await controls.getByText(/^1 marked; 2 controls in all; \d+ of \d+ targets left to label\.$/).waitFor()
    await answers.fill('2,poor_answer,9,false')
    await controls.getByRole('button', { name: 'Mark these as controls' }).click()
    await controls
      .getByText(/No controls were marked\. Not understood: line 1 .*there is no unit 9/)
      .waitFor()
    await app.shot('project-figures-1024')

    // ben was handed a package: a list of names without him is shown before it redraws the split.
    exportPackage(ws, { datasetId, annotator: 'ben', out: join(dirname(app.workspaceFile), 'ben.pkg.jsonl') })
    await page.evaluate(`location.hash = '#/datasets'`)
    await page.evaluate(`location.hash = '#/project/${datasetId}'`)
    const plan = page.getByRole('form', { name: 'Plan' })
    await plan.getByLabel('Annotators (name').fill('ana: 30, benn: 25')
    await plan.getByRole('button', { name: 'Save plan' }).click()
    await expect
      .poll(() => plan.getByTestId('plan-dropped').textContent())
      .toContain(
        'ben was handed a package of this dataset but is not among the names now. The fixed split will be redrawn',
      )
    await plan.getByText('“benn” is not in this workspace yet').waitFor()
    expect(ws.db.prepare("SELECT COUNT(*) AS n FROM annotators WHERE name = 'benn'").get()).toEqual({ n: 0 })

    // The dataset card's plan row keeps its name whole at this width.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Datasets' }).click()
    const planRow = page
      .getByRole('article', { name: 'wikievalfacts' })
      .locator('.progress-name', { hasText: 'plan (k = 2)' })
    await planRow.waitFor()
    expect(await wholeText(planRow)).toBe(true)
  })
})
