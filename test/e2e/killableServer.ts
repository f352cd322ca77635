import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { seedBulk } from '../annotate/bulk'
import { findChromium, launchChromium } from '../helpers/chromium'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { chooseAnnotator } from './harness'
import { STEP_MS } from './limits'

/**
 * What the tests that kill the server under a labelling tab share: a browser-mode server in a
 * process of its own (killServer.child.ts), so it can be SIGKILLed and started again on the
 * same port, and a tab labelling a small dataset on it.
 */

export interface ServerProcess {
  child: ChildProcess
  /** The page's URL, with the token. */
  url: string
  origin: string
  port: number
}

/** Starts a server on `file` (port 0: any) with this token; resolves once it listens. */
export async function serveInChild(file: string, port: number, token: string): Promise<ServerProcess> {
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
  return { child, url, origin, port: Number(new URL(origin).port) }
}

/** SIGKILL: the server gets no chance to close anything. Resolves once it is gone. */
export async function killServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGKILL')
  await exited
}

export interface LabellingTab {
  /** The workspace file, for reading what it holds as another process would. */
  file: string
  datasetId: number
  server: ServerProcess
  browser: Browser
  page: Page
  /** The unit the keys label now. */
  selected: Locator
}

/**
 * A workspace with three seeded items in a folder of its own (removed after the file's tests),
 * a server on it in a child process, and a tab where annotator "kim" labels the dataset, its
 * first unit selected. The caller closes the browser and kills the server it ends with.
 */
export function labellingTabs(
  prefix: string,
): (opts: { token: string; viewport?: { width: number; height: number } }) => Promise<LabellingTab> {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  return async ({ token, viewport }) => {
    const file = freshWorkspaceFile(join(dir, 'w.factlab'))
    const ws = Workspace.open(file)
    const datasetId = seedBulk(ws, 3)
    ws.close()
    const server = await serveInChild(file, 0, token)
    const browser = await launchChromium(findChromium() ?? '/usr/bin/chromium')
    try {
      const page = await browser.newPage(viewport ? { viewport } : {})
      page.setDefaultTimeout(STEP_MS)
      await page.goto(server.url)
      await chooseAnnotator(page, 'kim')
      await page.goto(`${server.origin}/#/annotate/${datasetId}`)
      const selected = page.locator('.unit[aria-selected="true"]')
      await selected.waitFor()
      return { file, datasetId, server, browser, page, selected }
    } catch (e) {
      await browser.close()
      await killServer(server.child)
      throw e
    }
  }
}
