import { describe, expect, it } from 'vitest'
import { markGuidelinesRead, saveGuidelines } from '../../src/main/guidelines/guidelines'
import { setPlan } from '../../src/main/projects/plan'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { appSessions } from './harness'

const start = appSessions()

describe("the Project view's annotators", () => {
  for (const width of [1024, 1440])
    it(`say which guidelines version each person last read, at ${width} px`, async () => {
      const app = await start({ annotator: 'lead', viewport: { width, height: 800 } })
      const { page } = app
      const db = app.server.ctx.workspace.db
      const datasetId = db.prepare('SELECT id FROM datasets ORDER BY id LIMIT 1').pluck().get() as number
      setPlan(db, { datasetId, k: 1, annotators: [{ name: 'ana' }, { name: 'ben' }, { name: 'cy' }] })
      saveGuidelines(db, datasetId, 'Version one: be strict.')
      markGuidelinesRead(db, datasetId, ensureAnnotator(db, 'ana').id, 1)
      saveGuidelines(db, datasetId, 'Version two: be lenient.')
      markGuidelinesRead(db, datasetId, ensureAnnotator(db, 'ben').id, 2)

      await page.evaluate(`location.hash = '#/project/${datasetId}'`)
      const people = page.getByTestId('project-annotators')
      await people.waitFor()
      const cell = (name: string) =>
        people.locator(`tr[data-annotator="${name}"] [data-testid="guidelines-read"]`)
      await expect.poll(() => cell('ana').textContent()).toBe('v1 (v2 is out)')
      expect(await cell('ben').textContent()).toBe('v2')
      expect(await cell('cy').textContent()).toBe('not yet')
      await people.scrollIntoViewIfNeeded()
      await app.shot(`project-guidelines-read-${width}`)
    })
})
