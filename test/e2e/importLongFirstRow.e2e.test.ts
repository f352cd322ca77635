import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { uploads } from '../../src/main/annotate/upload'
import { AppContext } from '../../src/main/app/context'
import { Workspace } from '../../src/main/app/workspace'
import { saveGuidelines } from '../../src/main/guidelines/guidelines'
import { seedProject } from '../export/project'
import { rpcOn } from '../helpers/app'
import { appSessions } from './harness'
import { HEAVY_STEP_MS } from './limits'

const start = appSessions()

let dir = ''
let file = ''
/** A FactLab export whose first row carries seven long versions of the guidelines: over 1 MB. */
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'factlab-e2e-longrow-'))
  const lead = join(dir, 'lead.factlab')
  const { datasetId } = seedProject(lead)
  const ws = Workspace.open(lead)
  try {
    for (let v = 3; v <= 9; v++) {
      const rules = Array.from(
        { length: 2000 },
        (_, n) =>
          `${n}. A fact is **true** when the reference states it "built in" is the year work ended (rev ${v}).`,
      )
      saveGuidelines(ws.db, datasetId, `# How to judge, version ${v}\n\n${rules.join('\n\n')}`, 'Lead')
    }
  } finally {
    ws.close()
  }
  const ctx = new AppContext(lead, { driver: 'browser' })
  try {
    const { files } = await rpcOn(ctx).value<{ files: string[] }>('exports.dataset', {
      datasetId,
      format: 'jsonl',
      outDir: join(dir, 'out'),
    })
    file = files[0]!
  } finally {
    ctx.close()
  }
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the import dialog and a FactLab export whose first row passes a megabyte', () => {
  it.each([1024, 1440])(
    'at %i px: previews its rows after reading on, then imports the guidelines whole',
    async (width) => {
      expect(statSync(file).size).toBeGreaterThan(1 << 20)
      const app = await start({ demo: false, viewport: { width, height: 900 } })
      const { page } = app
      const received = vi.spyOn(uploads, 'register')
      await page.getByRole('button', { name: 'Import dataset…' }).first().click()
      const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
      await wizard.getByLabel('Dataset file').setInputFiles(file)
      await wizard.getByText('the columns look like factlab').waitFor()
      await wizard
        .getByRole('cell', { name: /How to judge/ })
        .first()
        .waitFor()
      await app.shot(`import-long-first-row-${width}`)
      // The first megabyte ended inside the first row; four held it. The import then sends it all.
      expect(received.mock.calls.map(([, bytes]) => bytes)).toEqual([
        1 << 20,
        Math.min(4 << 20, statSync(file).size),
      ])
      await wizard.getByLabel('Dataset name').fill('Long guidelines')
      await wizard.getByRole('button', { name: 'Import', exact: true }).click()
      await wizard.getByText(/Imported “Long guidelines”/).waitFor({ timeout: HEAVY_STEP_MS })
      received.mockRestore()
      const body = app.server.ctx.workspace.db
        .prepare('SELECT max(length(body)) AS n, COUNT(*) AS versions FROM guidelines')
        .get() as { n: number; versions: number }
      expect(body.versions).toBe(9)
      expect(body.n).toBeGreaterThan(100_000)
    },
    90_000,
  )
})
