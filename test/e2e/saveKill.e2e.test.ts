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
 * The server is killed (SIGKILL: no chance to close anything) right after a key press, once
 * after the label was acknowledged and once before. Nothing acknowledged may be lost, nothing
 * may show as saved that the workspace does not hold, and the unacknowledged label must get
 * through once a server is back.
 */
const dir = mkdtempSync(join(tmpdir(), 'factlab-kill-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const TOKEN = 'kill-test-token-0123456789abcdef'

async function serve(
  file: string,
  port: number,
): Promise<{ child: ChildProcess; url: string; port: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/e2e/killServer.child.ts', file, String(port), TOKEN],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
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

async function kill(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit')
  child.kill('SIGKILL')
  await exited
}

/** What the workspace file holds, read as another process would after the kill. */
function stored(file: string): Map<number, string | null> {
  const db = openWorkspace(file, { readonly: true, skipQuickCheck: true })
  try {
    const rows = db.prepare('SELECT target_id, verdict FROM labels').raw().all() as [number, string | null][]
    return new Map(rows)
  } finally {
    db.close()
  }
}

describe('a killed server', () => {
  it('loses no acknowledged label and shows nothing as saved that was not', async () => {
    const file = join(dir, 'w.factlab')
    const ws = Workspace.open(file)
    const datasetId = seedBulk(ws, 3)
    ws.close()
    let server = await serve(file, 0)
    const browser = await launchChromium(findChromium() ?? '/usr/bin/chromium')
    try {
      const page = await browser.newPage()
      page.setDefaultTimeout(15_000)
      await page.goto(server.url)
      await chooseAnnotator(page, 'kim')
      await page.goto(`${new URL(server.url).origin}/#/annotate/${datasetId}`)
      const selected = page.locator('.unit[aria-selected="true"]')
      await selected.waitFor()
      const targetOf = async () => Number((await selected.getAttribute('id'))?.replace('unit-', ''))

      // 1. Acknowledged, then killed: the label is in the file.
      const first = await targetOf()
      const firstId = await selected.getAttribute('id')
      await page.keyboard.press('1')
      await page.locator('.save-state.saved').waitFor()
      await kill(server.child)
      expect(stored(file).get(first)).toBe('true')

      // 2. Killed before the acknowledgement: the next label cannot reach the server.
      const second = await targetOf()
      expect(second).not.toBe(first)
      const secondId = await selected.getAttribute('id')
      await page.keyboard.press('2')
      await page.locator(`#${secondId}[data-verdict="false"]`).waitFor()
      // It is never shown as saved while the file does not hold it: the indicator says it is
      // being tried again and the unit is marked unsaved.
      await page.locator('.save-state.error').waitFor()
      await expect(page.locator('.save-state.saved').count()).resolves.toBe(0)
      await page.locator(`#${secondId} .unit-state[title="Not saved"]`).waitFor()
      expect(stored(file).has(second)).toBe(false)
      expect(stored(file).get(first)).toBe('true')

      // 3. A server is back (same port and token): the queued label gets through by itself.
      server = await serve(file, server.port)
      await page.locator('.save-state.saved').waitFor({ timeout: 30_000 })
      const after = stored(file)
      expect(after.get(first)).toBe('true')
      expect(after.get(second)).toBe('false')
      expect(firstId).not.toBe(secondId)
    } finally {
      await browser.close()
      await kill(server.child).catch(() => {})
    }
  }, 180_000) // two server processes and a browser: slow on a loaded machine, not a timing check
})
