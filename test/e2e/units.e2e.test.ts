import { describe, expect, it } from 'vitest'
import { importFile } from '../../src/main/import'
import { appSessions } from './harness'
import { turnBlindOff } from './pages/blindWatch'

const start = appSessions()

describe('units review in the browser', () => {
  it('edits a labelled fact: a new version appears and the old labels stay with the old text', async () => {
    const app = await start()
    const { page } = app
    const db = app.server.ctx.workspace.db
    // A reviewer reading everyone's labels in the history: blind mode (the default) would hide them.
    await turnBlindOff(page)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Units' }).click()
    const rows = page.getByTestId('unit-row')
    await rows.first().waitFor()
    const oldId = Number(await rows.first().getAttribute('data-unit-id'))
    const oldText = (db.prepare('SELECT text FROM units WHERE id = ?').get(oldId) as { text: string }).text
    const labelsBefore = db
      .prepare(
        `SELECT a.name, l.verdict FROM labels l JOIN targets t ON t.id = l.target_id
         JOIN annotators a ON a.id = l.annotator_id WHERE t.unit_id = ? ORDER BY t.id, a.name`,
      )
      .all(oldId)
    expect(labelsBefore.length).toBeGreaterThan(0)
    await expect.poll(() => rows.first().locator('.units-badge-labels').textContent()).toMatch(/labels?/)
    // The fact reads across its row: badges and actions wrap below it rather than squeezing it
    // to a word per line.
    const rowBox = await rows.first().boundingBox()
    const textBox = await rows.first().locator('.units-text').boundingBox()
    expect(textBox!.width).toBeGreaterThan(rowBox!.width * 0.5)
    await app.shot('units-before-edit')

    // Keyboard only: j focuses the first unit, e opens the editor, Enter saves.
    await page.keyboard.press('j')
    await page.keyboard.press('e')
    const editor = page.getByLabel('Unit text')
    await expect.poll(() => editor.inputValue()).toBe(oldText)
    await expect.poll(() => rows.first().textContent()).toContain('version 2')
    await editor.fill('The James Webb Space Telescope mainly observes in infrared light.')
    await page.keyboard.press('Enter')

    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toBe('Saved as version 2; the labels stay with version 1.')
    const first = rows.first()
    await expect
      .poll(() => first.locator('.units-text').textContent())
      .toBe('The James Webb Space Telescope mainly observes in infrared light.')
    const newId = Number(await first.getAttribute('data-unit-id'))
    expect(newId).not.toBe(oldId)
    expect(await first.locator('.units-badge').first().textContent()).toBe('v2')

    // h shows both versions; the labels are listed under version 1 only.
    await page.keyboard.press('h')
    const versions = first.getByTestId('unit-version')
    await expect.poll(() => versions.count()).toBe(2)
    expect(await versions.nth(0).textContent()).toContain('No labels on this version.')
    const v1 = (await versions.nth(1).textContent()) ?? ''
    expect(v1).toContain(oldText)
    expect(v1).toMatch(/alex on answer: True/)
    await app.shot('units-after-edit')

    const old = db.prepare('SELECT superseded_by AS sup, text FROM units WHERE id = ?').get(oldId)
    expect(old).toEqual({ sup: newId, text: oldText })
    const labelsAfter = db
      .prepare(
        `SELECT a.name, l.verdict FROM labels l JOIN targets t ON t.id = l.target_id
         JOIN annotators a ON a.id = l.annotator_id WHERE t.unit_id = ? ORDER BY t.id, a.name`,
      )
      .all(oldId)
    expect(labelsAfter).toEqual(labelsBefore)
  })

  it('splits a unit and merges two back, by the row buttons', async () => {
    const app = await start()
    const { page } = app
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Units' }).click()
    const rows = page.getByTestId('unit-row')
    await rows.first().waitFor()
    const count = await rows.count()
    await rows.nth(1).getByRole('button', { name: 'Split' }).click()
    await page
      .getByLabel('Pieces, one per line')
      .fill('It was launched in December 2021.\nIt was launched on an Ariane 5.')
    await page.getByRole('button', { name: 'Split into 2' }).click()
    await expect.poll(() => rows.count()).toBe(count + 1)
    expect(await rows.nth(2).locator('.units-text').textContent()).toBe('It was launched on an Ariane 5.')

    await rows.nth(1).getByLabel('Select for merge').check()
    await rows.nth(2).getByLabel('Select for merge').check()
    await page.getByRole('button', { name: 'Merge 2 selected…' }).click()
    await page.getByLabel('Merged text').fill('It was launched in December 2021 on an Ariane 5.')
    await page.getByRole('button', { name: 'Merge', exact: true }).click()
    await expect.poll(() => rows.count()).toBe(count)
    expect(await rows.nth(1).locator('.units-text').textContent()).toBe(
      'It was launched in December 2021 on an Ariane 5.',
    )
    await app.shot('units-split-merge')

    // The merged-away piece waits among the deleted units and can come back.
    await page.getByText('Deleted units (1)').click()
    await page.getByRole('button', { name: 'Restore' }).click()
    await expect.poll(() => rows.count()).toBe(count + 1)
  })

  it('edits a labelled RefChecker triplet by its object: a new version, the label stays on the old', async () => {
    const app = await start({ demo: false })
    const { page } = app
    await turnBlindOff(page)
    const ws = app.server.ctx.workspace
    const report = await importFile(ws, {
      file: 'test/fixtures/import/refchecker.json',
      secondFile: 'test/fixtures/import/refchecker_context.json',
      datasetName: 'RefChecker sample',
    })
    await page.evaluate(`location.hash = '#/units/${report.datasetId}'`)

    const list = page.getByRole('region', { name: 'Triplets of “claude2 triplets”' })
    const shown = list.getByTestId('unit-row').filter({ hasText: 'painted' })
    await shown.waitFor()
    // Held by id: in the editor the parts are in text boxes, which a text filter does not see.
    const oldId = Number(await shown.getAttribute('data-unit-id'))
    const row = list.locator(`[data-unit-id="${oldId}"]`)
    expect(await row.locator('.units-part').allTextContents()).toEqual([
      'Dunmore lighthouse',
      'painted',
      'red',
    ])
    // Triplets offer no merge: the list says why instead.
    expect(await list.getByLabel('Select for merge').count()).toBe(0)
    await list.getByText('triplets are not merged').waitFor()

    await row.getByRole('button', { name: 'Edit' }).click()
    const object = row.getByLabel('Object', { exact: true })
    await expect.poll(() => object.inputValue()).toBe('red')
    // A blank part cannot be saved, and the row says what is missing.
    await object.fill('  ')
    await row.getByText('Every part needs some text.').waitFor()
    expect(await row.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true)
    await object.fill('white')
    await row.getByText(/saving makes version 2/).waitFor()
    await app.shot('units-triplet-edit')
    await object.press('Enter')

    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toBe('Saved as version 2; the labels stay with version 1.')
    const edited = list.getByTestId('unit-row').filter({ hasText: 'white' })
    // The status is set before the item reloads, so the new row is waited for.
    await expect
      .poll(() => edited.locator('.units-part').allTextContents())
      .toEqual(['Dunmore lighthouse', 'painted', 'white'])
    expect(await edited.locator('.units-badge').first().textContent()).toBe('v2')
    const newId = Number(await edited.getAttribute('data-unit-id'))
    expect(newId).not.toBe(oldId)

    await edited.getByRole('button', { name: 'History' }).click()
    const versions = edited.getByTestId('unit-version')
    await expect.poll(() => versions.count()).toBe(2)
    expect(await versions.nth(0).textContent()).toContain('No labels on this version.')
    expect(await versions.nth(1).textContent()).toMatch(/refchecker on claude2 triplets: Contradiction/)
    await app.shot('units-triplet-after-edit')

    const unit = (id: number) =>
      ws.db.prepare('SELECT text, triplet, superseded_by AS sup FROM units WHERE id = ?').get(id)
    expect(unit(oldId)).toEqual({
      text: 'Dunmore lighthouse painted red',
      triplet: JSON.stringify(['Dunmore lighthouse', 'painted', 'red']),
      sup: newId,
    })
    expect(unit(newId)).toEqual({
      text: 'Dunmore lighthouse painted white',
      triplet: JSON.stringify(['Dunmore lighthouse', 'painted', 'white']),
      sup: null,
    })

    // Annotate shows the new version as its three parts.
    const itemId = (
      ws.db.prepare('SELECT item_id AS id FROM units WHERE id = ?').get(newId) as { id: number }
    ).id
    await page.evaluate(`location.hash = '#/annotate/${report.datasetId}?item=${itemId}'`)
    const claim = page.getByTestId('triplet').filter({ hasText: 'white' })
    await claim.waitFor()
    expect(
      await claim.locator('span').evaluateAll((s) => s.map((e) => [e.getAttribute('title'), e.textContent])),
    ).toEqual([
      ['Subject', 'Dunmore lighthouse'],
      ['Predicate', 'painted'],
      ['Object', 'white'],
    ])
    await app.shot('annotate-triplet')
  })

  it('splits a compound triplet into two triplets in the browser', async () => {
    const app = await start({ demo: false })
    const { page } = app
    const report = await importFile(app.server.ctx.workspace, {
      file: 'test/fixtures/import/refchecker.json',
      secondFile: 'test/fixtures/import/refchecker_context.json',
    })
    await page.evaluate(`location.hash = '#/units/${report.datasetId}'`)
    const list = page.getByRole('region', { name: 'Triplets of “claude2 triplets”' })
    const rows = list.getByTestId('unit-row')
    await rows.first().waitFor()
    const count = await rows.count()
    await rows.first().getByRole('button', { name: 'Split' }).click()
    const split = page.getByRole('button', { name: 'Split into 2 triplets' })
    // The second triplet starts with the same subject and waits for the rest.
    expect(await page.getByLabel('Subject of triplet 2').inputValue()).toBe('Dunmore lighthouse')
    expect(await split.isDisabled()).toBe(true)
    await page.getByLabel('Predicate of triplet 2').fill('located on')
    await page.getByLabel('Object of triplet 2').fill('the Irish coast')
    await app.shot('units-triplet-split')
    await split.click()
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Split into 2 units.')
    await expect.poll(() => rows.count()).toBe(count + 1)
    await expect
      .poll(() => rows.nth(1).locator('.units-part').allTextContents())
      .toEqual(['Dunmore lighthouse', 'located on', 'the Irish coast'])
  })
})
