import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importFile } from '../../src/main/import'
import type { Db } from '../../src/main/store/connection'
import { cli } from '../helpers/cli'
import { appSessions } from './harness'

const start = appSessions()

/**
 * A judge's verdicts made elsewhere, imported from the Judges view: the same run as
 * `factlab import-verdicts` makes of the same file. The fixture's fourth row names an answer the
 * dataset lacks, so it is refused whole, or skipped when asked.
 */
const DATA = 'test/fixtures/import/wikievalfacts.csv'
const VERDICTS = 'test/fixtures/import/faaf_verdicts.jsonl'
const MAPPING = {
  question: 'question',
  reference: 'answer',
  candidates: [
    { variant: 'answer', column: 'answer' },
    { variant: 'poor_answer', column: 'poor_answer' },
  ],
  facts: { column: 'gt_facts' },
}

/** What a run is to a reader of it: who made it, and every verdict on its targets. */
function runOf(db: Db, runId: number) {
  const run = db.prepare('SELECT kind, provider, model, method, status FROM runs WHERE id = ?').get(runId)
  const verdicts = db
    .prepare(
      'SELECT target_id, status, verdict, score, reason, citation FROM verdicts WHERE run_id = ? ORDER BY target_id',
    )
    .all(runId)
  return { run, verdicts }
}

describe('import verdicts from the Judges view', () => {
  for (const width of [1024, 1440])
    it(`at ${width} px: refuses a bad row, then imports with it skipped, as the CLI does`, async () => {
      const app = await start({ demo: false, annotator: 'lead', viewport: { width, height: 900 } })
      const { page } = app
      const ws = app.server.ctx.workspace
      const { datasetId } = await importFile(ws, { file: DATA, mapping: MAPPING, datasetName: 'wef' })
      const runs = () => (ws.db.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n

      await page.evaluate(`location.hash = '#/judges/${datasetId}'`)
      await page.getByRole('button', { name: 'Import verdicts…' }).click()
      const dialog = page.getByRole('dialog', { name: 'Import verdicts into “wef”' })
      await dialog.getByLabel('Verdicts file').setInputFiles(VERDICTS)
      // The first rows, as the file holds them, before anything is written.
      const preview = dialog.getByRole('table', { name: 'First rows of the file' })
      await expect.poll(() => preview.locator('tbody tr').count()).toBe(5)
      expect(await preview.locator('thead th').allTextContents()).toEqual(
        expect.arrayContaining(['item_id', 'variant', 'unit', 'verdict']),
      )
      await dialog.getByLabel('Model').fill('judge-elsewhere')
      await dialog.getByLabel('Method').fill('faaf-tfn')
      await dialog.getByLabel('Units numbered').selectOption('0')

      // Without skipping, the bad row refuses the whole file, in plain words, and writes nothing.
      await dialog.getByRole('button', { name: 'Import', exact: true }).click()
      const refusal = dialog.getByRole('alert')
      await refusal.waitFor()
      expect(await refusal.textContent()).toContain('Nothing was imported.')
      expect(await refusal.textContent()).toContain('item "2" has no candidate "ungrounded_answer"')
      // The file as the person picked it, not the temporary folder its upload was read from.
      expect(await refusal.textContent()).toContain('faaf_verdicts.jsonl, line 4: ')
      expect(await refusal.textContent()).not.toContain(tmpdir())
      expect(runs()).toBe(0)
      await app.shot(`import-verdicts-refused-${width}`)

      await dialog.getByLabel('Skip bad rows').check()
      await dialog.getByRole('button', { name: 'Import', exact: true }).click()
      // “maybe” gives no verdict: the count says so, as the run list and the CLI do.
      await dialog.getByText(/^Imported run \d+: 4 verdicts, 1 of them N\/A\./).waitFor()
      expect(await dialog.getByRole('list', { name: 'Skipped rows' }).textContent()).toContain(
        'field "variant": item "2" has no candidate "ungrounded_answer"',
      )
      await app.shot(`import-verdicts-done-${width}`)
      await dialog.getByRole('button', { name: 'Done' }).click()
      await page.getByRole('table', { name: 'Runs' }).getByText('judge-elsewhere').first().waitFor()
      await app.shot(`import-verdicts-runs-${width}`)
      const fromDialog = (ws.db.prepare('SELECT MAX(id) AS id FROM runs').get() as { id: number }).id
      // The run names the file the person picked, not the server's temporary copy of the upload.
      const recorded = ws.db.prepare('SELECT config FROM runs WHERE id = ?').get(fromDialog) as {
        config: string
      }
      expect(JSON.parse(recorded.config).file).toBe('faaf_verdicts.jsonl')

      const byCli = await cli([
        'import-verdicts',
        VERDICTS,
        '--workspace',
        app.workspaceFile,
        '--dataset',
        'wef',
        '--model',
        'judge-elsewhere',
        '--method',
        'faaf-tfn',
        '--skip-bad-rows',
        '--unit-base',
        '0',
        '--json',
      ])
      expect(byCli.code).toBe(0)
      const fromCli = JSON.parse(byCli.out) as { runId: number; verdicts: number }
      expect(fromCli.verdicts).toBe(4)
      expect(fromCli.runId).not.toBe(fromDialog)
      const made = runOf(ws.db, fromDialog)
      expect(made.verdicts).toHaveLength(4)
      expect(made).toEqual(runOf(ws.db, fromCli.runId))
    })

  it('takes several files: a run per file, said file by file, equal to the runs the CLI makes of them', async () => {
    const app = await start({ demo: false, annotator: 'lead', viewport: { width: 1024, height: 900 } })
    const { page } = app
    const ws = app.server.ctx.workspace
    const { datasetId } = await importFile(ws, { file: DATA, mapping: MAPPING, datasetName: 'wef' })
    const dir = mkdtempSync(join(tmpdir(), 'factlab-verdicts-'))
    try {
      const row = (unit: number, variant: string, verdict: string, item = '1') =>
        JSON.stringify({ item_id: item, variant, unit, verdict })
      const files = [join(dir, 'judge-a.jsonl'), join(dir, 'judge-b.jsonl')]
      writeFileSync(
        files[0]!,
        [row(0, 'answer', 'true'), row(1, 'answer', 'false'), row(2, 'poor_answer', 'false')].join('\n'),
      )
      writeFileSync(files[1]!, [row(0, 'answer', 'false'), row(0, 'answer', 'true', '3')].join('\n'))

      await page.evaluate(`location.hash = '#/judges/${datasetId}'`)
      await page.getByRole('button', { name: 'Import verdicts…' }).click()
      const dialog = page.getByRole('dialog', { name: 'Import verdicts into “wef”' })
      await dialog.getByLabel('Verdicts file').setInputFiles(files)
      expect(await dialog.getByTestId('more-files').textContent()).toContain(
        'and 1 more file: one run per file, named from its file',
      )
      await dialog.getByLabel('Method').fill('faaf-tfn')
      await dialog.getByLabel('Units numbered').selectOption('0')
      await app.shot('import-verdicts-two-files-1024')
      await dialog.getByRole('button', { name: 'Import', exact: true }).click()
      await dialog.getByText('Imported 2 runs, 5 verdicts in all.').waitFor()
      const said = await dialog.getByRole('list', { name: 'Runs imported' }).locator('li').allTextContents()
      expect(said).toHaveLength(2)
      expect(said[0]).toMatch(/^judge-a\.jsonl: run \d+ “judge-a”, 3 verdicts$/)
      expect(said[1]).toMatch(/^judge-b\.jsonl: run \d+ “judge-b”, 2 verdicts$/)
      await app.shot('import-verdicts-two-files-done-1024')
      await page.setViewportSize({ width: 1440, height: 900 })
      await app.shot('import-verdicts-two-files-done-1440')
      const fromDialog = ws.db
        .prepare("SELECT id FROM runs WHERE kind = 'imported' ORDER BY id")
        .pluck()
        .all() as number[]
      expect(fromDialog).toHaveLength(2)

      const byCli = await cli([
        'import-verdicts',
        ...files,
        '--workspace',
        app.workspaceFile,
        '--dataset',
        'wef',
        '--method',
        'faaf-tfn',
        '--unit-base',
        '0',
        '--json',
      ])
      expect(byCli.code, byCli.err).toBe(0)
      const fromCli = (JSON.parse(byCli.out) as { runs: { runId: number }[] }).runs.map((r) => r.runId)
      expect(fromCli).toHaveLength(2)
      for (const [i, run] of fromDialog.entries()) {
        expect(fromCli[i]).not.toBe(run)
        expect(runOf(ws.db, run)).toEqual(runOf(ws.db, fromCli[i]!))
      }
      expect(runOf(ws.db, fromDialog[0]!).run).toMatchObject({ model: 'judge-a', method: 'faaf-tfn' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
