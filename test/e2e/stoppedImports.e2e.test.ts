import { describe, expect, it } from 'vitest'
import { createHiddenDataset, stopFilling } from '../../src/main/import/hidden'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { appSessions } from './harness'

const start = appSessions()

/**
 * Two imports that stopped part-way are two things to decide about: the Datasets view lists them
 * one under the other, each with its own Withdraw button, not as one run-on paragraph.
 */
describe('two incomplete imports in the Datasets view', () => {
  for (const width of [1024, 1440])
    it(`at ${width} px: are a list of two, each apart with its own Withdraw button`, async () => {
      const app = await start({ viewport: { width, height: 900 } })
      const db = app.server.ctx.workspace.db
      stopFilling(createHiddenDataset(db, { name: 'first half', labelSchema: FAAF_SCHEMA }))
      stopFilling(createHiddenDataset(db, { name: 'second half', labelSchema: FAAF_SCHEMA }))
      await app.reload()

      const notice = app.page.getByRole('region', { name: 'Incomplete imports' })
      await notice.waitFor()
      await notice.getByText('2 imports stopped part-way', { exact: false }).waitFor()
      const entries = notice.getByRole('list').getByRole('listitem')
      expect(await entries.count()).toBe(2)
      const [first, second] = [entries.nth(0), entries.nth(1)]
      expect(await first.textContent()).toContain('Incomplete import “first half”')
      expect(await second.textContent()).toContain('Incomplete import “second half”')
      await first.getByRole('button', { name: 'Withdraw “first half”' }).waitFor()
      await second.getByRole('button', { name: 'Withdraw “second half”' }).waitFor()
      // Apart on the page: the second starts below the first's Withdraw button, with a gap.
      const a = await first.boundingBox()
      const b = await second.boundingBox()
      expect(a && b && b.y - (a.y + a.height)).toBeGreaterThanOrEqual(8)
      await app.shot(`stopped-imports-${width}`)
    })
})
