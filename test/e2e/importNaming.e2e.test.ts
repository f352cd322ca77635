import { cpSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { SETTING } from '../helpers/refcheckerRelease'
import { appSessions } from './harness'

const start = appSessions()
const FIXTURES = 'test/fixtures/import'

describe('import naming', () => {
  it('keeps MRPC’s quality as the dataset’s renamable reference labels, not a person, and tells detection from choice', async () => {
    const app = await start({ demo: false })
    const { page } = app
    await page.getByRole('button', { name: 'Import dataset…' }).first().click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard.getByLabel('Dataset file').setInputFiles(`${FIXTURES}/mrpc.tsv`)
    await wizard.getByText('the columns look like mrpc').waitFor()
    // Chosen by hand: the hint still says what was detected, and that the choice differs.
    await wizard.getByLabel('Layout').selectOption('paws')
    await wizard.getByText('reading it as paws, as you chose').waitFor()
    expect(await wizard.getByText('the columns look like mrpc').count()).toBe(1)
    await wizard.getByLabel('Layout').selectOption('mrpc')
    await wizard.getByLabel('Dataset name').fill('MRPC sample')
    await wizard.getByRole('button', { name: 'Import', exact: true }).click()
    await wizard.getByText('3 items, 3 answers, 3 units, 3 labels from 1 annotator or source.').waitFor()
    await wizard.getByRole('button', { name: 'Close' }).click()

    const card = page.getByRole('article', { name: 'MRPC sample' })
    await card.getByTestId('reference-labels').waitFor()
    expect(await card.getByTestId('reference-labels').textContent()).toContain(
      "the dataset's reference labels",
    )
    const db = app.server.ctx.workspace.db
    expect(db.prepare('SELECT DISTINCT variant FROM candidates').pluck().all()).toEqual(['paraphrase'])
    page.once('dialog', (d) => void d.accept('Gold paraphrase judgement'))
    await card.getByRole('button', { name: 'Rename' }).click()
    await expect
      .poll(() => card.getByTestId('reference-labels').textContent())
      .toContain('Gold paraphrase judgement: the dataset')

    // Nobody can pick the dataset's labels as who they are.
    await page.getByRole('button', { name: /Labelling as/ }).click()
    const gate = page.getByRole('dialog', { name: 'Who is labelling?' })
    await gate.waitFor()
    expect(await gate.getByRole('button', { name: 'Gold paraphrase judgement' }).count()).toBe(0)
    await app.shot('import-reference-labels')
  })

  it('names a picked folder as the CLI names it', async () => {
    const app = await start({ demo: false, viewport: { width: 1024, height: 768 } })
    const { page } = app
    await page.getByRole('button', { name: 'Import dataset…' }).first().click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard.getByLabel('Dataset folder').setInputFiles(SETTING)
    await wizard.getByText('the columns look like refchecker').waitFor()
    expect(await wizard.getByLabel('Dataset name').inputValue()).toBe('zero_context')
    await app.shot('import-folder-1024')
    await wizard.getByRole('button', { name: 'Import', exact: true }).click()
    await wizard.getByText(/Imported “zero_context”/).waitFor()

    const r = await cli(['import', SETTING, '--workspace', `${app.workspaceFile}-cli`, '--json'])
    expect(r.code, r.err).toBe(0)
    expect(JSON.parse(r.out).dataset).toBe('zero_context')
  })

  it('imports from a folder exactly what the CLI would, and refuses a folder with nothing importable', async () => {
    const app = await start({ demo: false })
    const { page } = app
    const dir = mkdtempSync(join(tmpdir(), 'factlab-folder-'))
    const setting = join(dir, 'zero_context')
    cpSync(SETTING, setting, { recursive: true })
    writeFileSync(join(setting, 'NOTES.txt'), 'how these files were made')
    const notes = join(dir, 'notes')
    cpSync(join(setting, 'NOTES.txt'), join(notes, 'readme.txt'))
    await page.getByRole('button', { name: 'Import dataset…' }).first().click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard.getByLabel('Dataset folder').setInputFiles(notes)
    const alert = wizard.getByRole('alert')
    await alert.getByText('Nothing to import.', { exact: true }).waitFor()
    expect(await alert.textContent()).toContain('holds no JSONL, JSON, CSV, TSV or Parquet file')
    expect(await wizard.getByLabel('Layout').count()).toBe(0)

    await wizard.getByLabel('Dataset folder').setInputFiles(setting)
    await wizard.getByText('the columns look like refchecker').waitFor()
    await wizard.getByRole('button', { name: 'Import', exact: true }).click()
    await wizard.getByText(/Imported “zero_context”/).waitFor()
    const r = await cli(['import', setting, '--workspace', `${app.workspaceFile}-cli`, '--json'])
    expect(r.code, r.err).toBe(0)
  })
})
