import { readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BUILTIN_REGISTRY } from '../../src/main/runs/builtin'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { engineFor, foreignLease, oneRun, runRequest, TEST_KEY } from '../runs/helpers'
import { appSessions } from './harness'

/** The Judges view's runs list in Chromium: verdicts out to a file, and runs driven elsewhere. */
const start = appSessions()
const fake = fakeLlmForFile()

describe('runs list in the browser', () => {
  it('exports a run’s verdicts with raw requests and responses, and shows a run another process drives', async () => {
    const app = await start({ annotator: 'tester' })
    const { page } = app
    const ws = app.server.ctx.workspace
    const datasetId = (ws.db.prepare('SELECT id FROM datasets ORDER BY id LIMIT 1').get() as { id: number })
      .id
    const judged = oneRun(ws, runRequest(datasetId, fake().openaiUrl, { method: 'faaf-tf' }))
    const summary = await engineFor(ws, { registry: BUILTIN_REGISTRY }).start(judged)
    expect(summary.status).toBe('done')
    const rows = summary.verdicts + summary.na + summary.errors
    expect(rows).toBeGreaterThan(0)
    const elsewhere = oneRun(ws, runRequest(datasetId, fake().openaiUrl, { method: 'faaf-tf' }))
    foreignLease(ws, elsewhere, 1_000)

    await page.evaluate(`location.hash = '#/judges/${datasetId}'`)
    const view = page.getByTestId('judges-view')
    const held = view.getByTestId(`run-${elsewhere}`)
    await expect
      .poll(() => held.getByTestId('run-held').textContent())
      .toMatch(new RegExp(`^Run ${elsewhere} is being driven by the CLI, pid 4242 on host other-host, since`))
    expect(await held.getByRole('button', { name: 'Resume' }).isDisabled()).toBe(true)
    expect(await held.getByRole('button', { name: 'Cancel' }).count()).toBe(0)

    await view.getByTestId(`run-${judged}`).getByRole('button', { name: 'Export verdicts…' }).click()
    const dialog = page.getByRole('dialog', { name: `Export verdicts of run #${judged}` })
    await dialog.waitFor()
    // Browser mode offers a download first; the server's file is the second choice.
    const serverChoice = () => dialog.getByText('Or write it to a file on the server’s machine').click()
    await serverChoice()
    const file = dialog.getByLabel('File')
    await expect.poll(() => file.inputValue()).toContain(`${dirname(app.workspaceFile)}/exports/`)
    expect(await file.inputValue()).toMatch(new RegExp(`-run-${judged}-verdicts\\.jsonl$`))
    await dialog.getByLabel('Include raw requests/responses').check()
    await app.shot('judges-export-verdicts')
    await dialog.getByRole('button', { name: 'Write to this file' }).click()

    const written = dialog.getByRole('list', { name: 'Written files' }).getByRole('listitem')
    await expect.poll(() => written.count()).toBe(1)
    const path = (await written.textContent()) ?? ''
    expect(await dialog.getByRole('status').textContent()).toContain(
      `Exported ${rows} verdicts with raw requests and responses`,
    )
    await app.shot('judges-export-verdicts-done')

    const text = readFileSync(path, 'utf8')
    expect(text).not.toContain(TEST_KEY)
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string; request: { wire?: unknown } | null; response: unknown })
    expect(lines).toHaveLength(rows)
    expect(lines.every((l) => l.request?.wire !== undefined && l.response !== null)).toBe(true)

    // The same file again is refused in the dialog and the first export is left as it was.
    await dialog.getByRole('button', { name: 'Done' }).click()
    await view.getByTestId(`run-${judged}`).getByRole('button', { name: 'Export verdicts…' }).click()
    await serverChoice()
    await file.fill(path)
    await dialog.getByRole('button', { name: 'Write to this file' }).click()
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('already exists')
    expect(readFileSync(path, 'utf8')).toBe(text)
  })
})
