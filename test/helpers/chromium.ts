import { execFileSync } from 'node:child_process'
import { type Browser, chromium } from 'playwright-core'

/** Debian's Chromium (or CHROMIUM_PATH), or null when it is not installed. */
export function findChromium(): string | null {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim()
  } catch {
    return null
  }
}

/**
 * Headless Chromium as every browser test and bench runs it: no sandbox (a container), no GPU,
 * and none of the background fetches and updates that would compete for the machine's cores.
 */
export function launchChromium(executablePath: string, extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    // Playwright gives a start 30 s; on a machine at a load average of 30 a browser's start can
    // take that long without anything being wrong. Only a browser that hangs reaches this.
    timeout: 120_000,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      ...extraArgs,
    ],
  })
}
