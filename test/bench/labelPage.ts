/**
 * The page the label benches press keys in (annotate.ts times them, labelPresses.ts explains
 * them): the browser-mode server on a workspace, headless Chromium on its annotate view, and the
 * presses themselves, so both run the very same rhythm.
 */
import { resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import type { Workspace } from '../../src/main/app/workspace'
import { startServer } from '../../src/main/server/server'
import { findChromium, launchChromium } from '../helpers/chromium'

export interface LabelPage {
  page: Page
  workspace: Workspace
  close(): Promise<void>
}

/** The annotate view of the dataset `seed` makes (or names), as annotator "bench". */
export async function openLabelPage(
  file: string,
  seed: (ws: Workspace) => number,
  rendererDir = 'out/renderer',
): Promise<LabelPage> {
  const server = await startServer({ workspaceFile: file, port: 0, rendererDir: resolve(rendererDir) })
  const datasetId = seed(server.ctx.workspace)
  let browser: Browser | null = null
  try {
    const exe = findChromium()
    if (exe === null) throw new Error('Chromium is not installed: `apt-get install -y chromium`')
    browser = await launchChromium(exe)
    const page = await browser.newPage()
    page.on('crash', () => process.stdout.write('page crashed\n'))
    page.on('pageerror', (e) => process.stdout.write(`page error: ${e.message}\n`))
    await page.goto(server.url)
    await page.getByLabel('New annotator').fill('bench')
    await page.getByRole('button', { name: 'Start labelling' }).click()
    await page.goto(`${server.origin}/#/annotate/${datasetId}`)
    await page.locator('.unit[aria-selected="true"]').waitFor()
    const opened = browser
    return {
      page,
      workspace: server.ctx.workspace,
      close: async () => {
        await opened.close()
        await server.close()
      },
    }
  } catch (error) {
    await browser?.close()
    await server.close()
    throw error
  }
}

/**
 * How soon after "Saved" the next key comes. `annotator`: 100–196 ms, varied so that keys fall at
 * every phase of the display's frame (a person tapping through facts as fast as one can still
 * takes a tenth of a second a key). `machine`: at once, which no person does: a key a few
 * milliseconds after the "Saved" frame lands while the page's compositor still takes the display's
 * ticks after drawing it, and about one key in thirty lands just after such a tick and waits for
 * the next one (up to 16.7 ms) whatever the render; at an annotator's pace the compositor has
 * stopped asking for ticks and hands the key's frame over at once.
 */
export type Pace = 'annotator' | 'machine'

const pauseBefore = (pace: Pace, i: number) => (pace === 'annotator' ? 100 + ((i * 37) % 97) : 0)

/**
 * Labels `presses` units, true and false in turn, each press waiting for its unit to show the
 * verdict (or for the view to move on to the next variant with units left, when the label
 * finished this one) and for "Saved". At the end of an item the focus stays; Enter then moves to
 * the next unlabelled unit (a key the benches do not time).
 */
export async function pressLabels(page: Page, presses: number, pace: Pace = 'annotator'): Promise<void> {
  for (let i = 0; i < presses; i++) {
    const pause = pauseBefore(pace, i)
    if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause))
    const before = await page.locator('.unit[aria-selected="true"]').getAttribute('id')
    const verdict = i % 2 === 0 ? 'true' : 'false'
    await page.keyboard.press(verdict === 'true' ? '1' : '2')
    await page
      .locator(`#${before}[data-verdict="${verdict}"], .unit[aria-selected="true"]:not(#${before})`)
      .first()
      .waitFor()
    await page.locator('.save-state.saved').waitFor()
    if ((await page.locator('.unit[aria-selected="true"]').getAttribute('id')) === before) {
      await page.keyboard.press('Enter')
      await page.locator(`.unit[aria-selected="true"]:not(#${before})`).waitFor()
    }
  }
}
