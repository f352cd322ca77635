import { describe, expect, it } from 'vitest'
import { openWorkspace } from '../../src/main/store/connection'
import { killServer, labellingTabs, serveInChild } from './killableServer'
import { TEST_MS } from './limits'

/**
 * The server is killed (SIGKILL: no chance to close anything) right after a key press, once
 * after the label was acknowledged and once before. Nothing acknowledged may be lost, nothing
 * may show as saved that the workspace does not hold, and the unacknowledged label must get
 * through once a server is back.
 */
const labellingTab = labellingTabs('factlab-kill-')

const TOKEN = 'kill-test-token-0123456789abcdef'

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
  it(
    'loses no acknowledged label and shows nothing as saved that was not',
    async () => {
      const tab = await labellingTab({ token: TOKEN })
      const { file, browser, page, selected } = tab
      let server = tab.server
      try {
        const targetOf = async () => Number((await selected.getAttribute('id'))?.replace('unit-', ''))

        // 1. Acknowledged, then killed: the label is in the file.
        const first = await targetOf()
        const firstId = await selected.getAttribute('id')
        await page.keyboard.press('1')
        await page.locator('.save-state.saved').waitFor()
        await killServer(server.child)
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
        // (after the retry pause the queue is in, up to 5 s: the step limit, STEP_MS, covers it)
        server = await serveInChild(file, server.port, TOKEN)
        await page.locator('.save-state.saved').waitFor()
        const after = stored(file)
        expect(after.get(first)).toBe('true')
        expect(after.get(second)).toBe('false')
        expect(firstId).not.toBe(secondId)
      } finally {
        await browser.close()
        await killServer(server.child).catch(() => {})
      }
    },
    TEST_MS,
  ) // two server processes and a browser: slow on a loaded machine, not a timing check
})
