import { describe, expect, it } from 'vitest'
import { appSessions } from './harness'
import { AnnotatePage } from './pages/annotate'

const start = appSessions()
const DEMO = 'Demo: WikiEval-style'

describe('a label whose save landed but whose answer was lost', () => {
  it('is sent again and stored once', async () => {
    const app = await start()
    const { page } = app
    const annotate = new AnnotatePage(page)
    await annotate.open(DEMO)
    const targetId = await annotate.focusedTargetId()
    let sends = 0
    let firstLanded = false
    await page.route('**/api/call/annotate.save', async (route) => {
      sends++
      if (sends > 1) return route.continue()
      // The first save reaches the server and is stored; its answer never reaches the page.
      const answer = await route.fetch()
      firstLanded = answer.ok()
      await route.abort('connectionreset')
    })
    await page.keyboard.press('2')
    await annotate.waitSaved()
    expect(firstLanded).toBe(true)
    expect(sends).toBe(2)
    const db = app.server.ctx.workspace.db
    const history = db
      .prepare(
        `SELECT h.verdict FROM label_history h JOIN annotators a ON a.id = h.annotator_id
         WHERE h.target_id = ? AND a.name = 'tester'`,
      )
      .all(targetId)
    expect(history).toEqual([{ verdict: 'false' }])
  })
})
