import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { MODELS, modelFile } from '../helpers/refcheckerRelease'
import { appSessions } from './harness'

const start = appSessions()

/** Every file under `dir`, by its path there with `/` between folders. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort()
}

describe('browser-mode export', () => {
  it('downloads every file of a multi-file export, byte for byte what the CLI writes', async () => {
    const app = await start({ demo: false, viewport: { width: 1024, height: 768 } })
    const { page } = app
    await page.getByRole('button', { name: 'Import dataset…' }).first().click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard.getByLabel('Dataset file').setInputFiles(MODELS.map(modelFile))
    await wizard.getByLabel('Dataset name').fill('zero_context')
    await wizard.getByRole('button', { name: 'Import', exact: true }).click()
    await wizard.getByText(/items, \d+ answers/).waitFor()
    await wizard.getByRole('button', { name: 'Close' }).click()

    await page.getByRole('article', { name: 'zero_context' }).getByRole('button', { name: 'Export…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Export “zero_context”' })
    await dialog.getByLabel('Format').selectOption('refchecker-json')
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('zero_context-refchecker-json.zip')
    const entries = unzipSync(readFileSync((await download.path())!))
    const listed = dialog.getByRole('list', { name: 'Files in the download' }).getByRole('listitem')
    await dialog
      .getByRole('status')
      .getByText(/a zip of the 8 files the export writes/)
      .waitFor()
    await app.shot('export-downloaded-1024')

    const out = join(mkdtempSync(join(tmpdir(), 'factlab-cli-export-')), 'out')
    const r = await cli([
      'export',
      '--workspace',
      app.workspaceFile,
      '--dataset',
      'zero_context',
      '--format',
      'refchecker-json',
      '--out',
      out,
    ])
    expect(r.code, r.err).toBe(0)
    const fromCli = filesUnder(out)
    expect(fromCli).toContain('README.md')
    expect(fromCli).toHaveLength(MODELS.length + 1)
    expect(Object.keys(entries).sort()).toEqual(fromCli)
    expect((await listed.allTextContents()).sort()).toEqual(fromCli)
    for (const f of fromCli)
      expect(Buffer.from(entries[f]!).toString('utf8'), f).toBe(readFileSync(join(out, f), 'utf8'))
  })
})
