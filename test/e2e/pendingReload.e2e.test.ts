import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { openWorkspace } from '../../src/main/store/connection'
import { seedBulk } from '../annotate/bulk'
import { findChromium, launchChromium } from '../helpers/chromium'
import { chooseAnnotator } from './harness'

/**
 * QA finding 3: the server stops while a person labels, and comes back with a new token (every
 * start prints a new URL). The label given meanwhile is kept in the tab, the lost token is said
 * without hiding Retry, and opening the new URL in the tab sends the label: it is in the file.
 */
const dir = mkdtempSync(join(tmpdir(), 'factlab-pending-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function serve(file: string, port: number, token: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/e2e/killServer.child.ts', file, String(port), token],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let buf = ''
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString()
      const nl = buf.indexOf('\n')
      if (nl >= 0) resolve(buf.slice(0, nl))
    })
    child.once('exit', () => reject(new Error('the server exited before it listened')))
  })
  const { url, origin } = JSON.parse(line) as { url: string; origin: string }
  return { child, url, port: Number(new URL(origin).port) }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGKILL')
  await exited
}

function verdictIn(file: string, targetId: number): string | null | undefined {
  const db = openWorkspace(file, { readonly: true, skipQuickCheck: true })
  try {
    const row = db.prepare('SELECT verdict FROM labels WHERE target_id = ?').get(targetId) as
      | { verdict: string | null }
      | undefined
    return row?.verdict
  } finally {
    db.close()
  }
}

describe('a label given while the server is away', () => {
  it('survives a restart with a new token and is saved once the new URL is opened', async () => {
    const file = join(dir, 'w.factlab')
    const ws = Workspace.open(file)
    const datasetId = seedBulk(ws, 3)
    ws.close()
    let server = await serve(file, 0, 'first-token-0123456789abcdef0123')
    const browser = await launchChromium(findChromium() ?? '/usr/bin/chromium')
    try {
      const page = await browser.newPage({ viewport: { width: 1024, height: 768 } })
      page.setDefaultTimeout(20_000)
      await page.goto(server.url)
      await chooseAnnotator(page, 'kim')
      await page.goto(`${new URL(server.url).origin}/#/annotate/${datasetId}`)
      const selected = page.locator('.unit[aria-selected="true"]')
      await selected.waitFor()
      const unitId = (await selected.getAttribute('id'))!
      const targetId = Number(unitId.replace('unit-', ''))

      await stop(server.child)
      await page.keyboard.press('2')
      // Pending, never shown as saved; the tab keeps it.
      await page.locator('.save-pending').waitFor()
      expect(await page.locator('.save-state.saved').count()).toBe(0)
      expect(verdictIn(file, targetId)).toBeUndefined()

      // Back on the same port with a new token: the page's token is stale. The message is read
      // whole under the bar and Retry stays in view at this width.
      server = await serve(file, server.port, 'second-token-0123456789abcdef012')
      await page.getByRole('button', { name: 'Retry' }).click()
      await page.locator('.save-pending', { hasText: 'lost its access token' }).waitFor()
      await expect(page.getByRole('button', { name: 'Retry' }).isVisible()).resolves.toBe(true)
      expect(verdictIn(file, targetId)).toBeUndefined()

      // Opening the new URL in this tab (a reload that lands on the start page) sends it.
      await page.goto(server.url)
      await page.locator('.nav-item').first().waitFor()
      await expect.poll(() => verdictIn(file, targetId), { timeout: 30_000 }).toBe('false')

      // And Annotate shows it as stored.
      await page.goto(`${new URL(server.url).origin}/#/annotate/${datasetId}?target=${targetId}`)
      await page.locator(`#${unitId}[data-verdict="false"]`).waitFor()
    } finally {
      await browser.close()
      await stop(server.child).catch(() => {})
    }
  }, 180_000) // two server processes and a browser: slow on a loaded machine, not a timing check
})
