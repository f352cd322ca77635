import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { saveGuidelines } from '../../src/main/guidelines/guidelines'
import { exportPackage } from '../../src/main/projects/packageExport'
import { setPlan } from '../../src/main/projects/plan'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { editUnit } from '../../src/main/units/edit'
import { seedProject } from '../projects/seed'
import { appSessions, chooseAnnotator } from './harness'
import { AnnotatePage } from './pages/annotate'

const start = appSessions()

/** Opens the Annotate view afresh, so it lands on the queue's next target for whoever labels. */
async function openQueue(page: Page, datasetId: number): Promise<AnnotatePage> {
  await page.evaluate(`location.hash = '#/project/${datasetId}'`)
  await page.getByRole('form', { name: 'Plan' }).waitFor()
  await page.evaluate(`location.hash = '#/annotate/${datasetId}'`)
  const a = new AnnotatePage(page)
  await a.focused.waitFor()
  return a
}

/** Gives the focused unit a verdict by key and waits until it is saved. */
async function label(a: AnnotatePage, key: '1' | '2'): Promise<number> {
  const target = await a.focusedTargetId()
  await a.page.keyboard.press(key)
  await expect.poll(() => a.page.locator(`#unit-${target}`).getAttribute('data-verdict')).not.toBeNull()
  await a.waitSaved()
  return target
}

describe('an annotation project in the browser', () => {
  it('runs k = 2 with two annotators, scores a control, and puts people on the cost axis', async () => {
    const app = await start({ annotator: 'ana' })
    const { page } = app
    const db = app.server.ctx.workspace.db
    // What each label save sends: the guidelines version on screen travels with it.
    const saves: { targetId: number; guidelinesVersion?: number }[] = []
    page.on('request', (r) => {
      if (r.url().endsWith('annotate.save')) saves.push(JSON.parse(r.postData() ?? '{}'))
    })
    const datasetId = (db.prepare('SELECT id FROM datasets ORDER BY id LIMIT 1').get() as { id: number }).id
    // A control: a target nobody adjudicated, whose known answer is "true". A control is served
    // only while it has fewer than k labels, like the work around it; the demo's own annotator
    // labelled every target, so that label goes (before the app opens it) for ana and ben both to
    // meet the control.
    const control = (
      db
        .prepare(
          `SELECT t.id FROM targets t WHERE t.dataset_id = ? AND NOT EXISTS (SELECT 1 FROM gold g WHERE g.target_id = t.id)
           ORDER BY t.id DESC LIMIT 1`,
        )
        .get(datasetId) as { id: number }
    ).id
    db.prepare('DELETE FROM labels WHERE target_id = ?').run(control)

    // The lead sets the plan on the Project screen: k = 2, two named people, every queue turn a control.
    await page.evaluate(`location.hash = '#/project/${datasetId}'`)
    const plan = page.getByRole('form', { name: 'Plan' })
    await plan.waitFor()
    await plan.getByLabel('Overlap k').fill('5')
    // A rate that is not a number is refused; a name the workspace does not know is shown before
    // saving adds it (a typo would otherwise become a person with a share of the work).
    await plan.getByLabel('Annotators (name').fill('ana, ben: abc')
    await plan.getByRole('button', { name: 'Save plan' }).click()
    await expect
      .poll(() => plan.getByRole('alert').textContent())
      .toContain('after the colon comes an hourly rate')
    await plan.getByLabel('Annotators (name').fill('ana, ben:')
    await plan.getByRole('button', { name: 'Save plan' }).click()
    await expect
      .poll(() => plan.getByRole('status').textContent())
      .toContain('“ben” is not in this workspace yet')
    expect(db.prepare("SELECT COUNT(*) AS n FROM annotators WHERE name LIKE 'ben%'").get()).toEqual({ n: 0 })
    await plan.getByRole('button', { name: 'Add and save plan' }).click()
    await expect
      .poll(() => plan.getByRole('alert').textContent())
      .toMatch(/k = 5 needs at least 5 annotators/)
    await plan.getByLabel('Overlap k').fill('2')
    await plan.getByLabel('Controls mixed in').fill('100')
    await plan.getByLabel('Hourly rate (dataset)').fill('30')
    await plan.getByRole('button', { name: 'Add and save plan' }).click()
    await page.getByText('k = 2 · open').waitFor()
    await page.getByRole('form', { name: 'Plan' }).getByText('Saved.').waitFor()
    expect(db.prepare("SELECT name FROM annotators WHERE name LIKE 'ben%'").all()).toEqual([{ name: 'ben' }])
    const controls = page.getByRole('region', { name: 'Controls' })
    await controls.getByLabel('Control answers', { exact: true }).fill(`targetId,verdict\n${control},true`)
    await controls.getByRole('button', { name: 'Mark these as controls' }).click()
    await controls.getByText('1 control in all').waitFor()

    // Guidelines: a script is refused with a clear message; remote images are not shown.
    const guide = page.getByRole('region', { name: 'Guidelines' })
    const md = guide.getByLabel('Guidelines Markdown')
    await md.fill(
      '# Rules\n\n<script>window.pwned = 1</script>\n\n<img src=x onerror="alert(1)"> [x](javascript:alert(1))',
    )
    // Each problem is named once, in one box, and the button waits until they are gone.
    const refusal = guide.locator('.error-box')
    await refusal.getByText(/a <script> tag/).waitFor()
    expect(await refusal.count()).toBe(1)
    expect(await refusal.textContent()).toBe(
      'These guidelines contain a <script> tag, an HTML event handler (such as onerror=) and a javascript: link, which guidelines may not hold (they are shown to every annotator). Remove them and save again; nothing was changed.',
    )
    expect(await guide.getByRole('button', { name: 'Save as a new version' }).isDisabled()).toBe(true)
    await md.fill(
      '# Rules\n\nA fact is **true** only if the answer states it.\n\n![tracker](https://example.com/t.png)',
    )
    await guide.getByText('1 image from other sites not shown.').first().waitFor()
    expect(await guide.locator('.guidelines-preview img').count()).toBe(0)
    await guide.getByRole('button', { name: 'Save as a new version' }).click()
    await guide.getByText('version 1').waitFor()
    // The header says so at once, and the version names who wrote it (the person labelling).
    await page
      .locator('.page-head')
      .getByText(/guidelines v1/)
      .waitFor()
    expect(db.prepare('SELECT author FROM guidelines WHERE dataset_id = ?').pluck().all(datasetId)).toEqual([
      'ana',
    ])
    expect(await page.evaluate('window.pwned')).toBeUndefined()

    // ana labels: first the guidelines in full, then the queue serves the control (unmarked), she answers it wrongly.
    await page.evaluate(`location.hash = '#/annotate/${datasetId}'`)
    const gate = page.getByRole('dialog', { name: 'Guidelines' })
    await gate.getByText('A fact is true only if the answer states it.').waitFor()
    await gate.getByRole('button', { name: 'I have read the guidelines' }).click()
    await gate.waitFor({ state: 'detached' })
    let a = await openQueue(page, datasetId)
    await page.getByRole('button', { name: 'Guidelines v1' }).waitFor()
    expect(await a.focusedTargetId()).toBe(control)
    await label(a, '2')
    a = await openQueue(page, datasetId)
    const anasOwn = await label(a, '1')
    expect(anasOwn).not.toBe(control)

    // While ana labels, the lead publishes version 2 (as the Project screen's save does): her open
    // view shows it in full before her next label, and each label keeps the version she had on screen.
    saveGuidelines(db, datasetId, '# Rules\n\nA fact is **true** if the answer states or clearly implies it.')
    app.server.ctx.events.emit('guidelines.changed', { datasetId, version: 2 })
    await gate.getByText('The guidelines were updated: version 2 (you read version 1)').waitFor()
    await gate.getByText('A fact is true if the answer states or clearly implies it.').waitFor()
    await gate.getByRole('button', { name: 'I have read the guidelines' }).click()
    await gate.waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Guidelines v2' }).waitFor()
    a = await openQueue(page, datasetId)
    const afterUpdate = await label(a, '1')
    const versionOf = (t: number) =>
      (
        db
          .prepare(
            'SELECT l.guidelines_version AS v FROM labels l JOIN annotators p ON p.id = l.annotator_id WHERE l.target_id = ? AND p.name = ?',
          )
          .get(t, 'ana') as { v: number | null } | undefined
      )?.v
    await expect.poll(() => versionOf(afterUpdate)).toBe(2)
    expect(versionOf(anasOwn)).toBe(1)
    expect(saves.filter((s) => s.targetId === anasOwn).map((s) => s.guidelinesVersion)).toEqual([1])
    expect(saves.filter((s) => s.targetId === afterUpdate).map((s) => s.guidelinesVersion)).toEqual([2])

    // ben takes his turn: the control comes to him too, he gets it right.
    await page.locator('button.who').click()
    await chooseAnnotator(page, 'ben')
    await page.evaluate(`location.hash = '#/annotate/${datasetId}'`)
    await gate.getByRole('button', { name: 'I have read the guidelines' }).click()
    await gate.waitFor({ state: 'detached' })
    a = await openQueue(page, datasetId)
    expect(await a.focusedTargetId()).toBe(control)
    await label(a, '1')
    a = await openQueue(page, datasetId)
    await label(a, '1')

    // The dashboard shows both, and ana's wrong answer on the control.
    await page.evaluate(`location.hash = '#/project/${datasetId}'`)
    const people = page.getByTestId('project-annotators')
    await people.waitFor()
    const accuracy = (name: string) =>
      people.locator(`tr[data-annotator="${name}"] [data-testid="control-accuracy"]`)
    await expect.poll(() => accuracy('ana').textContent()).toMatch(/^0\.0% \(0\/1;/)
    await expect.poll(() => accuracy('ben').textContent()).toMatch(/^100\.0% \(1\/1;/)
    // One answer is no measured score: the cell says so, as the dataset card does.
    expect(await accuracy('ben').textContent()).toMatch(/\) · too few targets \(n=1\)$/)
    expect(await accuracy('ana').textContent()).toMatch(/\) · too few targets \(n=1\)$/)
    expect(await people.locator('tr[data-annotator="ana"] td').nth(1).textContent()).toBe('2')
    expect(await people.locator('tr[data-annotator="ben"] td').nth(1).textContent()).toBe('1')
    // Per annotator and variant: each cell is "labels / share"; the labels add up to each person's count.
    const grid = page.getByTestId('project-annotator-variants')
    const placed = async (name: string) =>
      (await grid.locator(`tr[data-annotator="${name}"] td[data-variant]`).allTextContents())
        .map((c) => Number(c.split(' / ')[0]))
        .reduce((s, n) => s + n, 0)
    expect(await grid.locator('thead th').count()).toBeGreaterThan(1)
    expect(await placed('ana')).toBe(2)
    expect(await placed('ben')).toBe(1)
    // ana and ben share too few targets for κ to mean anything: the table gives the figure the
    // Agreement view gives, with the same mark beside it.
    const pairs = page.getByRole('table', { name: 'Pairwise agreement' })
    expect(await pairs.locator('tbody tr td').nth(2).textContent()).toMatch(
      /^(-?\d\.\d\d|—) too few shared targets \(n=\d+\)$/,
    )
    await app.shot('project-dashboard')

    // A package for ana, written from the dashboard, shows up as out and not yet back.
    const packages = page.getByRole('region', { name: 'Packages' })
    await packages.getByLabel('Package for').fill('ana')
    await packages.getByRole('button', { name: 'Write package' }).click()
    await packages.getByText(/Wrote ana's package/).waitFor()
    await packages.getByRole('cell', { name: 'not yet' }).waitFor()

    // Compare: the demo's annotators (timed labels, the dataset's hourly rate) are points on the cost axis.
    await page.evaluate(`location.hash = '#/compare/${datasetId}'`)
    const chart = page.getByTestId('cost-scatter')
    await chart.waitFor()
    await expect
      .poll(() => chart.locator('circle title').allTextContents())
      .toEqual(expect.arrayContaining([expect.stringMatching(/\(human\)/)]))
    // The table gives people a cost per 1,000 targets as it does judges.
    // (The demo's annotators, whose labels carry their time; ana and ben labelled too fast to time.)
    const human = page.getByTestId('judge-table').locator('tr.cmp-human', { hasText: 'alex (human)' })
    await expect.poll(() => human.locator('[data-metric="per1000"]').textContent()).not.toBe('—')
    await app.shot('project-compare-human-cost')
  })

  it('a run of verdict keys passes a unit others already took to k; clicking it labels it by hand', async () => {
    const app = await start({ annotator: 'cy' })
    const { page } = app
    const ws = app.server.ctx.workspace
    const db = ws.db
    const datasetId = (db.prepare('SELECT id FROM datasets ORDER BY id LIMIT 1').get() as { id: number }).id
    const a = await openQueue(page, datasetId)
    const [t1, t2, t3] = (
      await a.units.evaluateAll((els) => els.map((e) => Number(e.id.replace('unit-', ''))))
    ).slice(0, 3)
    if (t1 === undefined || t2 === undefined || t3 === undefined)
      throw new Error('the demo item needs three units')
    const count = (t: number) =>
      (
        db.prepare('SELECT COUNT(*) AS n FROM labels WHERE target_id = ? AND verdict IS NOT NULL').get(t) as {
          n: number
        }
      ).n
    // k one above what the first and third units hold; others bring the second unit up to k.
    const k = Math.max(count(t1), count(t3)) + 1
    const names = Array.from({ length: k + 1 }, (_, i) => `helper${i}`)
    for (const name of names) {
      if (count(t2) >= k) break
      ws.labels.save({ targetId: t2, annotatorId: ensureAnnotator(db, name).id, verdict: 'true' })
    }
    setPlan(db, { datasetId, k, policy: 'open', annotators: [...names, 'cy'].map((name) => ({ name })) })
    const before = count(t2)

    // Reopen the view on the first unit, so it learns the plan.
    await page.evaluate(`location.hash = '#/project/${datasetId}'`)
    await page.getByRole('form', { name: 'Plan' }).waitFor()
    await page.evaluate(`location.hash = '#/annotate/${datasetId}?target=${t1}'`)
    await page.locator(`#unit-${t1}`).click()
    await expect.poll(() => a.focusedTargetId()).toBe(t1)
    await page.keyboard.press('1')
    await expect.poll(() => page.locator(`#unit-${t1}`).getAttribute('data-verdict')).not.toBeNull()
    // The focus went past the unit that is done, straight to the third.
    await expect.poll(() => a.focusedTargetId()).toBe(t3)
    await a.waitSaved()
    expect(count(t2)).toBe(before)

    // Picking the done unit by hand and giving it a verdict is allowed: a label past k.
    await page.locator(`#unit-${t2}`).click()
    await expect.poll(() => a.focusedTargetId()).toBe(t2)
    await page.getByText('done by others').waitFor()
    await page.keyboard.press('1')
    await expect.poll(() => count(t2)).toBe(before + 1)
  })
})

describe('opening a work package', () => {
  it('is a button beside Import; a file that is no package is refused with its name and changes nothing', async () => {
    const app = await start()
    const { page } = app
    await page.evaluate(`location.hash = '#/datasets'`)
    const head = page.locator('.page-head')
    await head.getByRole('button', { name: 'Open a work package…' }).waitFor()
    const datasets = () => app.server.ctx.workspace.db.prepare('SELECT COUNT(*) AS n FROM datasets').get()
    const before = datasets()
    const dir = mkdtempSync(join(tmpdir(), 'factlab-pkg-'))
    const file = join(dir, 'notes.jsonl')
    writeFileSync(file, '{"not":"a package"}\n')
    await page.getByLabel('Open a work package').setInputFiles(file)
    await page.getByRole('status').getByText('notes.jsonl is not a FactLab work package').waitFor()
    expect(datasets()).toEqual(before)
  })
})

describe('a package laptop', () => {
  it('offers only the package’s annotator, says why, and says what a refreshed package changed', async () => {
    const leadDir = mkdtempSync(join(tmpdir(), 'factlab-lead-'))
    const lead = seedProject(leadDir, { items: 2, variants: 1, facts: 2, annotators: 2 })
    saveGuidelines(lead.ws.db, lead.ds.id, 'Version one: be strict.')
    const v1 = join(leadDir, 'ann0-v1.jsonl')
    exportPackage(lead.ws, { datasetId: lead.ds.id, annotator: 'ann0', out: v1 })
    const fact = lead.ws.db.prepare("SELECT id FROM units WHERE text = 'Fact 0.0'").get() as { id: number }
    editUnit(lead.ws.db, fact.id, 'Fact 0.0, said better')
    saveGuidelines(lead.ws.db, lead.ds.id, 'Version two: be lenient.')
    const v2 = join(leadDir, 'ann0-v2.jsonl')
    exportPackage(lead.ws, { datasetId: lead.ds.id, annotator: 'ann0', out: v2 })
    lead.ws.close()
    for (const width of [1024, 1440]) {
      const app = await start({ demo: false, annotator: 'tester', viewport: { width, height: 800 } })
      const { page } = app
      await page.evaluate(`location.hash = '#/datasets'`)
      await page.getByLabel('Open a work package').setInputFiles(v1)
      // tester may not label here: the dialog asks again, offering ann0 only, and says why.
      const gate = page.getByRole('dialog', { name: 'Who is labelling?' })
      await gate.getByRole('button', { name: 'ann0', exact: true }).waitFor()
      expect(await gate.getByRole('button', { name: 'tester' }).count()).toBe(0)
      expect(await gate.getByLabel('New annotator').count()).toBe(0)
      await gate
        .getByText(/only ann0 labels here, because the lead merges its labels back as ann0's only/)
        .waitFor()
      await app.shot(`package-laptop-gate-${width}`)
      await gate.getByRole('button', { name: 'ann0', exact: true }).click()
      await gate.waitFor({ state: 'detached' })
      await page.getByLabel('Open a work package').setInputFiles(v2)
      await page
        .getByRole('status')
        .getByText(
          `Updated "wiki" from ann0's newer package: 1 unit updated, guidelines v2. Every label ann0 made is kept.`,
        )
        .waitFor()
      await app.shot(`package-laptop-refreshed-${width}`)
    }
  })
})
