import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { appSessions } from './harness'

const start = appSessions()
const DEMO = 'Demo: WikiEval-style'

describe('browser-mode export', () => {
  it('downloads the export in the browser, byte for byte what the CLI writes', async () => {
    const app = await start()
    const { page } = app
    await page.getByRole('article', { name: DEMO }).getByRole('button', { name: 'Export…' }).click()
    const dialog = page.getByRole('dialog', { name: `Export “${DEMO}”` })
    await dialog.getByLabel('Format').selectOption('jsonl')
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('Demo-WikiEval-style-data.jsonl')
    const got = readFileSync((await download.path())!)
    await dialog
      .getByRole('status')
      .getByText(/Downloaded Demo-WikiEval-style-data\.jsonl/)
      .waitFor()
    await app.shot('export-downloaded')

    const out = join(mkdtempSync(join(tmpdir(), 'factlab-cli-export-')), 'out')
    const r = await cli([
      'export',
      '--workspace',
      app.workspaceFile,
      '--dataset',
      DEMO,
      '--format',
      'jsonl',
      '--out',
      out,
    ])
    expect(r.code).toBe(0)
    const fromCli = readFileSync(join(out, 'data.jsonl'))
    expect(got.length).toBeGreaterThan(1000)
    expect(got.equals(fromCli)).toBe(true)
  })
})
