import type { Locator } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { createHiddenDataset, stopFilling } from '../../src/main/import/hidden'
import { setControls } from '../../src/main/projects/controls'
import { createRuns } from '../../src/main/runs/create'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { appSessions } from './harness'

const start = appSessions()

/**
 * What cannot be taken back looks the same on every screen (the shared stylesheet's `.danger`),
 * not only in the Units view that first had the style: red ink and a red edge.
 */
describe('destructive buttons', () => {
  for (const width of [1024, 1440])
    it(`at ${width} px: withdraw, unmark, cancel and delete all wear the one danger look`, async () => {
      const app = await start({ viewport: { width, height: 900 } })
      const { page } = app
      const db = app.server.ctx.workspace.db
      // An import that stopped part-way, a control, and a run still to go.
      stopFilling(createHiddenDataset(db, { name: 'half an import', labelSchema: FAAF_SCHEMA }))
      const target = db
        .prepare('SELECT id FROM targets WHERE dataset_id = 1 ORDER BY id LIMIT 1')
        .pluck()
        .get()
      setControls(db, 1, { fromGold: [], answers: [{ targetId: target as number, verdict: 'true' }] }, 'now')
      const [run] = createRuns(db, { datasetId: 1, provider: 'lexical', model: 'rougeL', method: 'lexical' })
      db.prepare("UPDATE runs SET status = 'paused' WHERE id = ?").run(run)
      // The Datasets view asks for stopped imports as it opens.
      await app.reload()

      /** The red of the theme, as the page computes `--no`. */
      const red = (await page.evaluate(`(() => {
        const probe = document.createElement('span')
        probe.style.color = 'var(--no)'
        document.body.append(probe)
        const c = getComputedStyle(probe).color
        probe.remove()
        return c
      })()`)) as string
      const look = (button: Locator) =>
        button.evaluate((b) => {
          const s = (
            b.ownerDocument.defaultView as unknown as {
              getComputedStyle(e: unknown): { color: string; borderTopColor: string }
            }
          ).getComputedStyle(b)
          return { color: s.color, border: s.borderTopColor }
        })

      // The Datasets view opens first: no view that loads units.css has been shown yet.
      const withdraw = page.getByRole('button', { name: 'Withdraw “half an import”' })
      await withdraw.waitFor()
      expect(await look(withdraw)).toEqual({ color: red, border: red })
      await app.shot(`danger-withdraw-${width}`)

      await page.evaluate(`location.hash = '#/project/1'`)
      const unmark = page.getByRole('button', { name: 'Unmark every control (their labels stay)' })
      await unmark.waitFor()
      expect(await look(unmark)).toEqual({ color: red, border: red })
      await unmark.scrollIntoViewIfNeeded()
      await app.shot(`danger-unmark-${width}`)

      await page.evaluate(`location.hash = '#/judges/1'`)
      const cancel = page
        .getByRole('table', { name: 'Runs' })
        .getByRole('button', { name: 'Cancel', exact: true })
      await cancel.first().waitFor()
      expect(await look(cancel.first())).toEqual({ color: red, border: red })
      await cancel.first().scrollIntoViewIfNeeded()
      await app.shot(`danger-cancel-${width}`)

      await page.evaluate(`location.hash = '#/units/1'`)
      const row = page.locator('.units-row').first()
      await row.waitFor()
      await row.hover()
      const del = row.getByRole('button', { name: 'Delete', exact: true })
      expect(await look(del)).toEqual({ color: red, border: red })
      await app.shot(`danger-delete-${width}`)
    })
})
