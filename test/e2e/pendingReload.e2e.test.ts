import { describe, expect, it } from 'vitest'
import { openWorkspace } from '../../src/main/store/connection'
import { killServer, labellingTabs, serveInChild } from './killableServer'
import { TEST_MS } from './limits'

/**
 * QA finding 3: the server stops while a person labels, and comes back with a new token (every
 * start prints a new URL). The label given meanwhile is kept in the tab, the lost token is said
 * without hiding Retry, and opening the new URL in the tab sends the label: it is in the file.
 */
const labellingTab = labellingTabs('factlab-pending-')

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
  it(
    'survives a restart with a new token and is saved once the new URL is opened',
    async () => {
      const tab = await labellingTab({
        token: 'first-token-0123456789abcdef0123',
        viewport: { width: 1024, height: 768 },
      })
      const { file, datasetId, browser, page, selected } = tab
      let server = tab.server
      try {
        const unitId = (await selected.getAttribute('id'))!
        const targetId = Number(unitId.replace('unit-', ''))

        await killServer(server.child)
        await page.keyboard.press('2')
        // Pending, never shown as saved; the tab keeps it.
        await page.locator('.save-pending').waitFor()
        expect(await page.locator('.save-state.saved').count()).toBe(0)
        expect(verdictIn(file, targetId)).toBeUndefined()

        // Back on the same port with a new token: the page's token is stale. The message is read
        // whole under the bar and Retry stays in view at this width.
        server = await serveInChild(file, server.port, 'second-token-0123456789abcdef012')
        await page.getByRole('button', { name: 'Retry' }).click()
        await page.locator('.save-pending', { hasText: 'lost its access token' }).waitFor()
        await expect(page.getByRole('button', { name: 'Retry' }).isVisible()).resolves.toBe(true)
        expect(verdictIn(file, targetId)).toBeUndefined()

        // Opening the new URL in this tab (a reload that lands on the start page) sends it.
        await page.goto(server.url)
        await page.locator('.nav-item').first().waitFor()
        await expect.poll(() => verdictIn(file, targetId)).toBe('false')

        // And Annotate shows it as stored.
        await page.goto(`${server.origin}/#/annotate/${datasetId}?target=${targetId}`)
        await page.locator(`#${unitId}[data-verdict="false"]`).waitFor()
      } finally {
        await browser.close()
        await killServer(server.child).catch(() => {})
      }
    },
    TEST_MS,
  ) // two server processes and a browser: slow on a loaded machine, not a timing check
})
