import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { uploads } from '../../src/main/annotate/upload'
import { appSessions } from './harness'
import { HEAVY_STEP_MS } from './limits'

const start = appSessions()
const ROWS = 2000
/** ~40 KB of scan text per row (a field the QAGS layout does not import) makes the file ~80 MB. */
const SCAN = 'Scanned page text that only makes the file heavy. '.repeat(800)

function* rows(): Generator<string> {
  for (let i = 0; i < ROWS; i++) {
    const article = `Report ${i}: the Fenwick library reopened after ${i % 12} weeks of roof repairs.`
    yield `${JSON.stringify({
      article,
      summary_sentences: [
        { sentence: `The library reopened after report ${i}.`, responses: [] },
        { sentence: `The roof repairs took ${(i % 12) + 1} weeks.`, responses: [] },
      ],
      scan: [SCAN],
    })}\n`
  }
}

let dir = ''
let file = ''
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'factlab-e2e-large-'))
  file = join(dir, 'large-qags.jsonl')
  await pipeline(Readable.from(rows()), createWriteStream(file))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('importing a large file in browser mode', () => {
  it('streams an 80 MB JSONL file through the wizard and the Datasets view counts its items', async () => {
    expect(statSync(file).size).toBeGreaterThan(80 * 1000 * 1000)
    const app = await start({ demo: false })
    const { page } = app
    // The server runs in this process, so what reaches it can be counted here.
    const received = vi.spyOn(uploads, 'register')
    await page.getByRole('button', { name: 'Import dataset…' }).first().click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard.getByLabel('Dataset file').setInputFiles(file)
    // The preview reads only the start of the file: the first rows show while nothing else is sent.
    await wizard.getByText('the columns look like qags').waitFor()
    await wizard.getByRole('cell', { name: /Report 0: the Fenwick library/ }).waitFor()
    await wizard.getByLabel('Dataset name').fill('Large QAGS')
    await wizard.getByText(/large-qags\.jsonl · \d+\.\d MB/).waitFor()
    await app.shot('import-large-wizard')
    await wizard.getByRole('button', { name: 'Import', exact: true }).click()
    await wizard.getByText(/Imported “Large QAGS”: 2,000 items/).waitFor({ timeout: HEAVY_STEP_MS })
    await wizard.getByRole('button', { name: 'Open the dataset' }).click()
    await page.getByRole('heading', { name: 'Large QAGS' }).waitFor()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Datasets' }).click()
    const card = page.getByRole('article', { name: 'Large QAGS' })
    await card.getByText('2,000 items').waitFor()
    await app.shot('import-large-datasets')
    // The preview got the first megabyte only; the import, the whole file once.
    expect(received.mock.calls.map(([, bytes]) => bytes)).toEqual([1 << 20, statSync(file).size])
    received.mockRestore()
    const stored = app.server.ctx.workspace.db
      .prepare(
        "SELECT COUNT(*) AS n FROM items i JOIN datasets d ON d.id = i.dataset_id WHERE d.name = 'Large QAGS'",
      )
      .get() as { n: number }
    expect(stored.n).toBe(ROWS)
  }, 90_000)
})
