import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
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

  it('a file its name misreads: said plainly, the format and settings stay, and another format reads it', async () => {
    const app = await start({ demo: false, viewport: { width: 1024, height: 768 } })
    const { page } = app
    await page.getByRole('button', { name: 'Import dataset…' }).first().click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    // CSV text under a .json name: read as its name says, it is no JSON array.
    const csv = readFileSync('test/fixtures/import/wikievalfacts.csv')
    await wizard
      .getByLabel('Dataset file')
      .setInputFiles({ name: 'facts.json', mimeType: 'application/json', buffer: csv })
    const alert = wizard.getByRole('alert')
    await alert
      .getByText(
        'This file could not be read in the format its name and first bytes suggest. Choose another file format below to read it again, or choose another file.',
      )
      .waitFor()
    expect(await alert.textContent()).toContain('expected a JSON array of objects')
    // What the CLI's --format and --skip-bad-rows do is still there to choose.
    const format = wizard.getByLabel('File format')
    expect(await format.isVisible()).toBe(true)
    expect(await wizard.getByLabel(/Skip bad rows/).isVisible()).toBe(true)
    expect(await wizard.getByLabel('Dataset name').inputValue()).toBe('facts')
    const importButton = wizard.getByRole('button', { name: 'Import', exact: true })
    expect(await importButton.isDisabled()).toBe(true)
    await app.shot('import-misread-1024')
    await page.setViewportSize({ width: 1440, height: 900 })
    await app.shot('import-misread-1440')

    await format.selectOption('csv')
    await wizard.getByText('the columns look like wikievalfacts').waitFor()
    expect(await wizard.getByRole('alert').count()).toBe(0)
    expect(await importButton.isDisabled()).toBe(false)
    await importButton.click()
    await wizard.getByText(/Imported “facts”/).waitFor()
    const db = app.server.ctx.workspace.db
    const counts = (d: typeof db) =>
      d
        .prepare(
          'SELECT (SELECT COUNT(*) FROM items) AS items, (SELECT COUNT(*) FROM units) AS units, (SELECT COUNT(*) FROM labels) AS labels',
        )
        .get()

    // The CLI reads the same file the same way with --format csv.
    const dir = mkdtempSync(join(tmpdir(), 'factlab-misread-'))
    try {
      const file = join(dir, 'facts.json')
      writeFileSync(file, csv)
      const r = await cli([
        'import',
        file,
        '--format',
        'csv',
        '--workspace',
        join(dir, 'w.factlab'),
        '--json',
      ])
      expect(r.code, r.err).toBe(0)
      const report = JSON.parse(r.out) as { items: number; units: number; labels: number }
      expect(counts(db)).toEqual({ items: report.items, units: report.units, labels: report.labels })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
