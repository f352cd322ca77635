import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterEach, test, vi } from 'vitest'
import { type RunningServer, startServer } from '../../src/main/server/server'
import { findChromium, launchChromium } from '../helpers/chromium'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { templates } from '../helpers/templates'
import { STEP_MS, TEST_MS } from './limits'

/**
 * End-to-end harness: the real browser-mode server on a fresh temporary workspace, the built
 * renderer (out/renderer: `npm test` builds it first; run `npx electron-vite build` yourself after
 * changing renderer code), and Debian's Chromium driven by playwright-core.
 */

export const ARTIFACTS = resolve('test/artifacts')
const RENDERER = resolve('out/renderer')

function chromiumPath(): string {
  const found = findChromium()
  if (found === null)
    throw new Error('Chromium is not installed: `apt-get install -y chromium` (as .ci/run does).')
  return found
}

/**
 * One Chromium for all the e2e files a vitest worker runs, closed when the worker ends. A start
 * and a close cost seconds each, more than many of these files' tests; most files have one or two
 * tests. Every test still gets a browser context of its own (its own storage, cookies, downloads
 * and viewport), closed after it, so no test sees what another did. Where files run in a process
 * each (vitest's `isolate`, or one file run alone) the worker is the file, as before. A browser
 * that died under an earlier file is started again rather than failing the files after it.
 */
const e2eTest = test.extend(
  'chromium',
  { scope: 'worker' },
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern
  async ({}, { onCleanup }) => {
    let browser: Browser | null = null
    onCleanup(async () => {
      await browser?.close()
    })
    return async (): Promise<Browser> => {
      if (!browser?.isConnected())
        browser = await launchChromium(chromiumPath(), ['--no-first-run', '--disable-sync'])
      return browser
    }
  },
)

export interface AppSession {
  page: Page
  server: RunningServer
  /** The workspace file behind this session. */
  workspaceFile: string
  /** Saves a full-page screenshot to test/artifacts/<name>.png. */
  shot(name: string): Promise<string>
  /** Opens the app again in the same tab, as a person pressing reload would. */
  reload(): Promise<void>
}

export interface StartOptions {
  /** Loads the bundled WikiEval-style demo into the new workspace (default true). */
  demo?: boolean
  /** Chooses (creating if needed) this annotator in the start dialog; null leaves the dialog open. */
  annotator?: string | null
  viewport?: { width: number; height: number }
  colorScheme?: 'light' | 'dark'
}

/**
 * Registers the per-file hooks and returns `start()`, which gives each test its own server,
 * workspace and browser context; everything but the worker's browser is closed after the test.
 */
export function appSessions(): (opts?: StartOptions) => Promise<AppSession> {
  let browser: Browser | null = null
  const cleanups: (() => Promise<void> | void)[] = []

  // A test here is many steps, each waiting at most STEP_MS (a step that sticks is named); the
  // whole may take minutes on a loaded machine without anything being wrong.
  vi.setConfig({ testTimeout: TEST_MS, hookTimeout: 2 * STEP_MS })

  e2eTest.beforeAll(async ({ chromium }) => {
    if (!existsSync(join(RENDERER, 'index.html')))
      throw new Error('out/renderer is missing: run `npx electron-vite build` first (npm test does).')
    mkdirSync(ARTIFACTS, { recursive: true })
    browser = await chromium()
  })

  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c()
  })

  return async (opts = {}) => {
    if (!browser) throw new Error('useApp(): the browser did not start')
    const dir = mkdtempSync(join(tmpdir(), 'factlab-e2e-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const workspaceFile = join(dir, 'workspace.factlab')
    // Each test gets its own copy of a workspace made once per run: the same file a first start makes.
    if (opts.demo ?? true) copyFileSync(templates().demo, workspaceFile)
    else freshWorkspaceFile(workspaceFile)
    const server = await startServer({
      workspaceFile,
      port: 0,
      rendererDir: RENDERER,
      loadDemo: opts.demo ?? true,
    })
    cleanups.push(() => server.close())
    const context: BrowserContext = await browser.newContext({
      viewport: opts.viewport ?? { width: 1440, height: 900 },
      colorScheme: opts.colorScheme ?? 'light',
      deviceScaleFactor: 1,
    })
    cleanups.push(() => context.close())
    const page = await context.newPage()
    // Sized for a loaded machine (see limits.ts), and shorter than the test's own timeout, so a
    // wait that fails names what it waited for.
    page.setDefaultTimeout(STEP_MS)
    const problems: string[] = []
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    page.on('console', (m) => {
      // Not problems: frame-ancestors only works as a header (the server sends it as one), and
      // a call the server refuses (4xx) is logged by Chromium though the page handles it.
      const text = m.text()
      if (
        m.type() === 'error' &&
        !/ignored when delivered via a <meta> element|Failed to load resource/.test(text)
      )
        problems.push(`console: ${text} ${m.location().url}`)
    })
    cleanups.push(() => {
      // A CSP violation or an uncaught exception fails the test that caused it.
      if (problems.length) throw new Error(`The page reported errors:\n${problems.join('\n')}`)
    })
    await page.goto(server.url)
    const annotator = opts.annotator === undefined ? 'tester' : opts.annotator
    if (annotator !== null) await chooseAnnotator(page, annotator)
    return {
      page,
      server,
      workspaceFile,
      async shot(name) {
        const file = join(ARTIFACTS, `${name}.png`)
        await page.screenshot({ path: file })
        return file
      },
      async reload() {
        await page.reload()
        await page.locator('.shell').waitFor()
      },
    }
  }
}

/** Answers the "Who is labelling?" dialog with an existing or a new name. */
export async function chooseAnnotator(page: Page, name: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Who is labelling?' })
  await dialog.waitFor()
  const existing = dialog.getByRole('button', { name, exact: true })
  if (await existing.count()) await existing.click()
  else {
    await dialog.getByLabel('New annotator').fill(name)
    await dialog.getByRole('button', { name: 'Start labelling' }).click()
  }
  await dialog.waitFor({ state: 'detached' })
}
