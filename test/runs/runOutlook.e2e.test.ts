import { describe, expect, it } from 'vitest'
import { saveTemplate } from '../../src/main/prompts/store'
import { saveModel } from '../../src/main/providers/models'
import { DEFAULT_CAPABILITIES } from '../../src/main/providers/types'
import { createRuns } from '../../src/main/runs/create'
import { appSessions } from '../e2e/harness'
import { fakeLlmForFile } from '../helpers/fakeLlm'

/**
 * The Judges view says of a run what `judge status` says: the cost a paused run is heading for
 * and what that rests on, the template versions it sends, and a takeover only while it is under way.
 */
const start = appSessions()
const fake = fakeLlmForFile(['OPENAI_API_KEY'])

describe('a run’s outlook in the judges view', () => {
  it.each([1440, 1024])(
    'at %i px: expected cost and its basis, templates, no takeover once done',
    async (width) => {
      const app = await start({ annotator: 'tester', viewport: { width, height: 900 } })
      const { page } = app
      const db = app.server.ctx.workspace.db
      const datasetId = (db.prepare('SELECT id FROM datasets ORDER BY id LIMIT 1').get() as { id: number }).id
      saveModel(db, {
        provider: 'openai',
        model: 'gpt-fake',
        baseUrl: fake().openaiUrl,
        capabilities: DEFAULT_CAPABILITIES.openai,
        priceInputPerMTok: 2.5,
        priceOutputPerMTok: 10,
      })
      const request = { datasetId, provider: 'openai' as const, model: 'gpt-fake', baseUrl: fake().openaiUrl }
      const [paused] = createRuns(db, { ...request, method: 'faaf-tf' })
      const [done] = createRuns(db, { ...request, method: 'prompt-tf' })
      // Paused before its first call; its template edited since it was created.
      db.prepare("UPDATE runs SET status = 'paused', planned_calls = 12 WHERE id = ?").run(paused)
      saveTemplate(db, {
        name: 'faaf',
        user: 'Check the facts {{facts}} against {{candidate}} by {{answer_by}}.',
      })
      // Finished after taking over a vanished driver's lease.
      db.prepare("UPDATE runs SET status = 'done', planned_calls = 0 WHERE id = ?").run(done)
      db.prepare(
        `INSERT INTO run_lease_log (run_id, event, driver, pid, host, note, at)
       VALUES (?, 'taken-over', 'app', 1, 'here', 'took over run ' || ? || ' from the CLI, pid 4242 on host other-host: that process is gone', ?)`,
      ).run(done, done, new Date().toISOString())

      await page.evaluate(`location.hash = '#/judges/${datasetId}'`)
      const view = page.getByTestId('judges-view')
      const row = view.getByTestId(`run-${paused}`)
      await expect
        .poll(() => row.getByTestId('run-expected').textContent())
        .toMatch(
          /^Expected cost \$0\.\d{4}: 12 calls left of 12 planned calls, each at about \d+ prompt tokens at the run's prices; a rough guess from the size of the requests, with no reply counted yet, so the cost may come out above or below it\.$/,
        )
      expect(await row.getByTestId('run-templates').textContent()).toBe(
        'Every call uses faaf v1, as when the run was created; edited since (faaf is now v2), which applies to new runs only.',
      )
      const finished = view.getByTestId(`run-${done}`)
      await expect.poll(() => finished.getByTestId('run-status').textContent()).toMatch(/^done/)
      expect(await finished.textContent()).not.toMatch(/took over/i)
      expect(await finished.getByTestId('run-expected').count()).toBe(0)
      await row.scrollIntoViewIfNeeded()
      await app.shot(`judges-run-outlook-${width}`)
    },
  )
})
