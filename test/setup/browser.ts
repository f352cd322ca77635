import { chromium } from 'playwright-core'
import type { TestProject } from 'vitest/node'
import { CHROMIUM_ARGS, findChromium } from '../helpers/chromium'

/**
 * vitest's globalSetup: one Chromium for every browser test of the run, each file connecting to
 * it (test/e2e/harness.ts) and opening contexts of its own, as it did in a browser of its own.
 * Each file used to start Chromium and close it again: about 2 s of CPU each, under load much
 * longer, some fifty times a run. Contexts share no cookies, storage or cache, so no test can
 * see another's; a file that finds no shared browser starts its own, as before.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const executablePath = findChromium()
  if (executablePath === null || !(await runHasBrowserTests(project))) {
    project.provide('sharedBrowser', null)
    return async () => {}
  }
  const server = await chromium.launchServer({ executablePath, headless: true, args: [...CHROMIUM_ARGS] })
  project.provide('sharedBrowser', server.wsEndpoint())
  return () => server.close()
}

/**
 * False when the names given on the command line pick no browser test (`npx vitest run
 * test/metrics`): a run without one need not wait for Chromium. vitest keeps those names in a
 * field it does not document; should it go, every run starts the browser, which costs only time.
 */
async function runHasBrowserTests(project: TestProject): Promise<boolean> {
  const { testFiles } = await project.globTestFiles()
  const browserFiles = testFiles.filter((f) => f.endsWith('.e2e.test.ts'))
  if (browserFiles.length === 0) return false
  const filters: unknown = Reflect.get(project.vitest, 'filenamePattern')
  if (!Array.isArray(filters) || filters.length === 0) return true
  return browserFiles.some((f) => filters.some((name) => typeof name === 'string' && f.includes(name)))
}
