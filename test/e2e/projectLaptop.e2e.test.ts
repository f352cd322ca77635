import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { setControls } from '../../src/main/projects/controls'
import { exportPackage } from '../../src/main/projects/packageExport'
import { openPackage } from '../../src/main/projects/packageOpen'
import { setPlan } from '../../src/main/projects/plan'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from '../projects/seed'
import { appSessions } from './harness'

const start = appSessions()
const tmp = tmpDirs()

/** A lead's package for ann1 (k = 2, fixed split among three, two controls in the plan). */
function leadsPackage(): string {
  const dir = tmp()
  const lead = seedProject(dir, { items: 6, variants: 2, facts: 2, annotators: 3 })
  setPlan(lead.ws.db, {
    datasetId: lead.ds.id,
    k: 2,
    policy: 'fixed',
    seed: 7,
    annotators: ['ann0', 'ann1', 'ann2'].map((name) => ({ name, hourlyRate: 20 })),
  })
  const ann1 = lead.people[1]!.id
  const hers = (
    lead.ws.db
      .prepare(
        'SELECT t.id FROM targets t JOIN assignments a ON a.item_id = t.item_id WHERE a.annotator_id = ?',
      )
      .all(ann1) as { id: number }[]
  ).map((r) => r.id)
  setControls(
    lead.ws.db,
    lead.ds.id,
    { fromGold: [], answers: hers.slice(0, 2).map((targetId) => ({ targetId, verdict: 'true' })) },
    'now',
  )
  const pkg = join(dir, 'ann1.factlab-package.jsonl')
  exportPackage(lead.ws, { datasetId: lead.ds.id, annotator: 'ann1', out: pkg })
  lead.ws.close()
  return pkg
}

describe('the Project screen on an annotator’s laptop', () => {
  for (const width of [1024, 1440])
    it(`at ${width} px offers no controls or packages, says why, and counts and forecasts her share only`, async () => {
      const app = await start({ demo: false, annotator: 'ann1', viewport: { width, height: 900 } })
      const { page } = app
      const ws = app.server.ctx.workspace
      const { datasetId } = openPackage(ws, leadsPackage())
      const me = (ws.db.prepare("SELECT id FROM annotators WHERE name = 'ann1'").get() as { id: number }).id
      const mine = ws.db
        .prepare(
          `SELECT t.id FROM targets t JOIN assignments a ON a.item_id = t.item_id
           WHERE a.annotator_id = ? AND NOT EXISTS (SELECT 1 FROM controls c WHERE c.target_id = t.id) ORDER BY t.id`,
        )
        .all(me) as { id: number }[]
      const items = (
        ws.db.prepare('SELECT COUNT(*) AS n FROM assignments WHERE annotator_id = ?').get(me) as { n: number }
      ).n
      for (const t of mine.slice(0, 3))
        ws.labels.save({ targetId: t.id, annotatorId: me, verdict: 'true', seconds: 4 })

      await page.evaluate(`location.hash = '#/project/${datasetId}'`)
      const coverage = page.getByTestId('laptop-coverage')
      await coverage.waitFor()
      expect(await coverage.textContent()).toBe(
        `On this laptop: ann1's package only — ${items} items, ${mine.length} targets and 2 controls. The lead's dashboard counts the whole plan and everyone's labels; there, a control ann1 answered before the package was written counts as a control, not in ann1's share, so that share can be smaller than here.`,
      )
      const progress = await page.getByTestId('project-progress').textContent()
      expect(progress).toContain(`ann1's share: 3 of ${mine.length} targets labelled`)
      expect(progress).toContain("of active labelling left of ann1's share at the median time per label")
      expect(progress).toMatch(/ann1's share done around \d{4}-\d\d-\d\d by the calendar/)
      expect(progress).not.toContain('targets have their 2 labels')
      // Per variant too, her share and what she labelled of it, not the dataset's targets at k.
      const variants = page.getByTestId('project-variants')
      expect(await variants.locator('thead').textContent()).toContain("Targets of ann1's share")
      const rows = await variants
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.textContent))),
        )
      expect(rows.reduce((n, r) => n + r[1]!, 0)).toBe(mine.length)
      expect(rows.reduce((n, r) => n + r[2]!, 0)).toBe(3)

      const controls = page.getByRole('region', { name: 'Controls' })
      expect(await controls.getByTestId('laptop-controls').textContent()).toContain(
        "Control items are the lead's",
      )
      expect(await controls.getByRole('button').count()).toBe(0)
      expect(await controls.getByRole('textbox').count()).toBe(0)
      const packages = page.getByRole('region', { name: 'Packages' })
      expect(await packages.getByTestId('laptop-packages').textContent()).toContain(
        "Packages are written in the lead's workspace",
      )
      expect(await packages.getByRole('button', { name: 'Write package' }).count()).toBe(0)
      expect(await page.locator('.page-head').textContent()).not.toMatch(/packages? out/)
      // No rate travels in a package: her cost is counted at the lead's, and the cell says so.
      expect(await page.getByTestId('cost-at-lead').textContent()).toBe("— at the lead's")
      // The Annotators table stays inside its card, and holds no "Past k": only she labels here,
      // so none of her labels can land on a target that already has k.
      const annotators = page.getByTestId('project-annotators')
      expect(await annotators.locator('th').allTextContents()).not.toContain('Past k')
      const overhang = await page.evaluate(`(() => {
        const table = document.querySelector('[data-testid="project-annotators"]')
        const card = table.closest('.card')
        const inner = card.getBoundingClientRect().right - parseFloat(getComputedStyle(card).paddingRight)
        return Math.round(table.getBoundingClientRect().right - inner)
      })()`)
      expect(overhang).toBeLessThanOrEqual(0)
      // The guidelines are shown, not edited: a version saved here would never reach the lead.
      const guide = page.getByRole('region', { name: 'Guidelines' })
      expect(await guide.getByTestId('laptop-guidelines').textContent()).toContain(
        "The guidelines are the lead's: they came with ann1's package.",
      )
      expect(await guide.getByRole('textbox').count()).toBe(0)
      expect(await guide.getByRole('button', { name: 'Save as a new version' }).count()).toBe(0)
      await app.shot(`project-laptop-${width}`)
      // Annotate counts her share, the items the queue serves her, not the dataset's six.
      await page.evaluate(`location.hash = '#/annotate/${datasetId}'`)
      await page.getByText(new RegExp(`^Item \\d+ of your ${items}$`)).waitFor()
    })
})
