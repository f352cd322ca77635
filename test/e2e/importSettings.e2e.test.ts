import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AppContext } from '../../src/main/app/context'
import { rpcOn, type TestApp } from '../helpers/app'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { appSessions } from './harness'

/*
 * The import dialog reaches every setting of `factlab import` that applies to the chosen layout:
 * RefChecker's second file (--second-file), SummEval's scored dimension (--dimension), and the
 * file format (--format); what it imports equals what the CLI imports from the same files.
 */

const start = appSessions()
const tmp = tmpDirs()
const FIXTURES = 'test/fixtures/import'

interface Summary {
  name: string
  labelSchema: unknown
  items: number
  candidates: number
  units: number
  targets: number
  variants: string[]
  labelledBy: { name: string; labelled: number; source: boolean }[]
}

/** A dataset as a person sees it: its figures, and the targets layout's rows (units, labels, gold). */
async function contents(rpc: TestApp, name: string, dir: string) {
  const list = await rpc.value<(Summary & { id: number })[]>('datasets.list', {})
  const ds = list.find((d) => d.name === name)!
  const { files } = await rpc.value<{ files: string[] }>('exports.dataset', {
    datasetId: ds.id,
    format: 'jsonl',
    outDir: join(dir, 'export'),
  })
  return {
    summary: {
      labelSchema: ds.labelSchema,
      items: ds.items,
      candidates: ds.candidates,
      units: ds.units,
      targets: ds.targets,
      variants: ds.variants,
      labelledBy: ds.labelledBy.map(({ name, labelled, source }) => ({ name, labelled, source })),
    },
    rows: readFileSync(files.find((f) => f.endsWith('data.jsonl'))!, 'utf8'),
  }
}

/** What the CLI makes of the same files, in a workspace of its own. */
async function viaCli(args: string[], name: string) {
  const dir = tmp()
  const file = join(dir, 'cli.factlab')
  const r = await cli(['import', ...args, '--dataset', name, '--workspace', file, '--json'])
  expect(r.code, r.err).toBe(0)
  const ctx = new AppContext(file, { driver: 'cli' })
  try {
    return await contents(rpcOn(ctx), name, dir)
  } finally {
    ctx.close()
  }
}

describe('the import dialog at parity with `factlab import`', () => {
  it('imports a RefChecker file with its questions and references from a second file', async () => {
    const app = await start({ demo: false, viewport: { width: 1024, height: 900 } })
    const { page } = app
    await page.getByRole('button', { name: 'Import dataset…' }).first().click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard.getByLabel('Dataset file').setInputFiles(`${FIXTURES}/refchecker.json`)
    await wizard.getByText('the columns look like refchecker').waitFor()
    // Only RefChecker's own setting shows: no dimension to choose.
    expect(await wizard.getByLabel('Scored dimension').count()).toBe(0)
    await wizard
      .getByLabel('Second file with the questions and references')
      .setInputFiles(`${FIXTURES}/refchecker_context.json`)
    await wizard.getByTestId('second-file').getByText('refchecker_context.json').waitFor()
    await wizard.getByLabel('Dataset name').fill('rc')
    await app.shot('import-refchecker-second-file-1024')
    await page.setViewportSize({ width: 1440, height: 900 })
    await app.shot('import-refchecker-second-file-1440')
    await wizard.getByRole('button', { name: 'Import', exact: true }).click()
    await wizard.getByText(/Imported “rc”/).waitFor()

    const dir = tmp()
    const got = await contents(rpcOn(app.server.ctx), 'rc', dir)
    const want = await viaCli(
      [`${FIXTURES}/refchecker.json`, '--second-file', `${FIXTURES}/refchecker_context.json`],
      'rc',
    )
    expect(got).toEqual(want)
    // The references came from the second file.
    expect(got.rows).toContain('The Dunmore lighthouse was completed in 1874.')
  })

  it('imports a SummEval file scored on the dimension chosen among those its rows rate', async () => {
    const app = await start({ demo: false, viewport: { width: 1024, height: 900 } })
    const { page } = app
    await page.getByRole('button', { name: 'Import dataset…' }).first().click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard.getByLabel('Dataset file').setInputFiles(`${FIXTURES}/summeval.jsonl`)
    await wizard.getByText('the columns look like summeval').waitFor()
    expect(await wizard.getByLabel('Second file with the questions and references').count()).toBe(0)
    const select = wizard.getByLabel('Scored dimension')
    await select.waitFor()
    expect(await select.locator('option').allTextContents()).toEqual([
      'coherence',
      'consistency',
      'fluency',
      'relevance',
    ])
    // As the CLI without --dimension: consistency first.
    expect(await select.inputValue()).toBe('consistency')
    await select.selectOption('fluency')
    await wizard.getByLabel('Dataset name').fill('se')
    await app.shot('import-summeval-dimension-1024')
    await page.setViewportSize({ width: 1440, height: 900 })
    await app.shot('import-summeval-dimension-1440')
    await wizard.getByRole('button', { name: 'Import', exact: true }).click()
    await wizard.getByText(/Imported “se”/).waitFor()

    const dir = tmp()
    const got = await contents(rpcOn(app.server.ctx), 'se', dir)
    const want = await viaCli([`${FIXTURES}/summeval.jsonl`, '--dimension', 'fluency'], 'se')
    expect(got).toEqual(want)
    expect(got.summary.labelSchema).toMatchObject({ name: 'summeval-fluency' })
  })

  it('says plainly when the second file lacks an id, and imports nothing', async () => {
    const app = await start({ demo: false })
    const { page } = app
    await page.getByRole('button', { name: 'Import dataset…' }).first().click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard.getByLabel('Dataset file').setInputFiles(`${FIXTURES}/refchecker.json`)
    await wizard.getByText('the columns look like refchecker').waitFor()
    const one = JSON.parse(readFileSync(`${FIXTURES}/refchecker_context.json`, 'utf8')).slice(0, 1)
    await wizard.getByLabel('Second file with the questions and references').setInputFiles({
      name: 'contexts.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(one)),
    })
    await wizard.getByRole('button', { name: 'Import', exact: true }).click()
    const alert = wizard.getByRole('alert').filter({ hasText: 'Nothing was imported.' })
    await alert.waitFor()
    expect(await alert.textContent()).toContain('missing here and for id "rc-2" in the second file')
    const db = app.server.ctx.workspace.db
    expect(db.prepare('SELECT COUNT(*) FROM datasets').pluck().get()).toBe(0)
  })
})
