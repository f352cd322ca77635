import { describe, expect, it } from 'vitest'
import { appSessions } from './harness'

const start = appSessions()

describe('the import dialog refuses what the CLI refuses, once and plainly', () => {
  it('an empty file: one message, no endless "detecting…", Import disabled', async () => {
    const app = await start({ demo: false, viewport: { width: 1024, height: 768 } })
    const { page } = app
    await page.getByRole('button', { name: 'Import dataset…' }).first().click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard
      .getByLabel('Dataset file')
      .setInputFiles({ name: 'empty.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.alloc(0) })
    await wizard.getByText('This file cannot be imported. Choose another file.').waitFor()
    await app.shot('import-empty-1024')
    expect(await wizard.getByText('the file is empty').count()).toBe(1)
    expect(await wizard.getByText('detecting…').count()).toBe(0)
    expect(await wizard.getByText('Reading the first rows…').count()).toBe(0)
    expect(await wizard.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true)
  })

  it('a mapping with no answer column: said before importing, Import disabled, nothing created', async () => {
    const app = await start({ demo: false, viewport: { width: 1024, height: 768 } })
    const { page } = app
    await page.getByRole('button', { name: 'Import dataset…' }).first().click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard.getByLabel('Dataset file').setInputFiles({
      name: 'nocols.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('question,answer\nq1,a1\n'),
    })
    await wizard.getByText('no known layout detected').waitFor()
    // The layout was set from the columns, not by the person: the hint does not say they chose it.
    expect(await wizard.getByText('as you chose').count()).toBe(0)
    await wizard.getByText(/The mapping names no answer column/).waitFor()
    await app.shot('import-no-answers-1024')
    const importButton = wizard.getByRole('button', { name: 'Import', exact: true })
    expect(await importButton.isDisabled()).toBe(true)
    // Choosing an answer column lifts the refusal.
    await wizard.getByRole('button', { name: '+ Add an answer column' }).click()
    await wizard.getByLabel('Variant name 1').fill('answer')
    await wizard.locator('#map-cand-0').selectOption('answer')
    expect(await wizard.getByText(/The mapping names no answer column/).count()).toBe(0)
    expect(await importButton.isDisabled()).toBe(false)
    const db = app.server.ctx.workspace.db
    expect(db.prepare('SELECT COUNT(*) FROM datasets').pluck().get()).toBe(0)
  })

  it('a label column named after a person here: refused until the box is ticked, then filed as theirs', async () => {
    // The session's labeller, "tester", is a person in this workspace.
    const app = await start({ demo: false, viewport: { width: 1024, height: 768 } })
    const { page } = app
    await page.getByRole('button', { name: 'Import dataset…' }).first().click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard.getByLabel('Dataset file').setInputFiles({
      name: 'graded.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('ref,answer,grade\nThe sky is blue.,Blue.,true\nGrass is green.,Red.,false\n'),
    })
    await wizard.getByText('no known layout detected').waitFor()
    await wizard.locator('#map-reference').selectOption('ref')
    await wizard.getByRole('button', { name: '+ Add an answer column' }).click()
    await wizard.getByLabel('Variant name 1').fill('answer')
    await wizard.locator('#map-cand-0').selectOption('answer')
    const credit = wizard.getByLabel(/File label columns under the people of those names/)
    expect(await credit.count()).toBe(0)
    await wizard.getByRole('button', { name: '+ Add a label column' }).click()
    await wizard.getByLabel('Person labelling 1').fill('tester')
    await wizard.locator('#map-label-0').selectOption('grade')
    expect(await credit.isChecked()).toBe(false)
    const importButton = wizard.getByRole('button', { name: 'Import', exact: true })
    await importButton.click()
    await wizard.getByText(/“tester” is a person already in this workspace/).waitFor()
    await app.shot('import-person-refused-1024')
    const db = app.server.ctx.workspace.db
    expect(db.prepare('SELECT COUNT(*) FROM datasets').pluck().get()).toBe(0)
    await credit.check()
    await importButton.click()
    await wizard
      .getByText(/1 label column was filed under people already in this workspace, as you confirmed/)
      .waitFor()
    await wizard.getByText(/column "grade" is now among the labels of “tester”/).waitFor()
    await app.shot('import-person-credited-1024')
    expect(
      db
        .prepare(
          "SELECT COUNT(*) FROM labels l JOIN annotators a ON a.id = l.annotator_id WHERE a.name = 'tester'",
        )
        .pluck()
        .get(),
    ).toBe(2)
    expect(db.prepare('SELECT COUNT(*) FROM annotators').pluck().get()).toBe(1)
  })
})
