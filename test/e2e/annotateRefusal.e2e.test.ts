import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { stepOut } from '../../src/main/blind'
import { appSessions } from './harness'
import { AnnotatePage } from './pages/annotate'

const start = appSessions()

/** Whether the element is drawn whole: inside the window, no text cut off. Page-side source text. */
const shownWhole = (page: Page, selector: string) =>
  page.evaluate(`(() => {
    const el = document.querySelector(${JSON.stringify(selector)})
    const r = el.getBoundingClientRect()
    return r.left >= 0 && r.right <= window.innerWidth && el.scrollWidth <= el.clientWidth + 1
      && el.scrollHeight <= el.clientHeight + 1
  })()`)

describe('a label the workspace refuses', () => {
  for (const width of [1024, 1440])
    it(`is taken back, the item reloaded, and the reason shown whole at ${width} px`, async () => {
      const app = await start({ viewport: { width, height: 800 } })
      const { page } = app
      const db = app.server.ctx.workspace.db
      const annotate = new AnnotatePage(page)
      await annotate.open('Demo: WikiEval-style')
      const unit = page.locator(`#unit-${await annotate.focusedTargetId()}`)
      // Labelling closes to this person elsewhere (another window, the CLI): this screen is not told.
      const datasetId = db.prepare('SELECT id FROM datasets ORDER BY id LIMIT 1').pluck().get() as number
      const me = db.prepare("SELECT id FROM annotators WHERE name = 'tester'").pluck().get() as number
      stepOut(db, datasetId, me)
      expect(await page.locator('.stepped-out').count()).toBe(0)

      await page.keyboard.press('1')
      const banner = page.locator('.save-refusal')
      await banner.getByText('You stepped out of labelling this dataset').waitFor()
      // The item was read again: it now knows labelling here is closed to me.
      await page.locator('.stepped-out').waitFor()
      await expect.poll(() => unit.getAttribute('data-verdict')).toBe('')
      expect(await page.locator('.save-state.saved').count()).toBe(0)
      expect(await annotate.saveState().textContent()).toBe('Not saved')
      expect(await shownWhole(page, '.save-refusal')).toBe(true)
      await app.shot(`annotate-refusal-${width}`)
      expect(db.prepare('SELECT COUNT(*) AS n FROM labels WHERE annotator_id = ?').get(me)).toEqual({ n: 0 })
    })
})
