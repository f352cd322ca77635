import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { setControls } from '../../src/main/projects/controls'
import { projectDashboard } from '../../src/main/projects/dashboard'
import { exportPackage } from '../../src/main/projects/packageExport'
import { openPackage } from '../../src/main/projects/packageOpen'
import { setPlan } from '../../src/main/projects/plan'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from './seed'

const tmp = tmpDirs()

/**
 * A lead's project (k = 2, fixed split among three) where ann1 answered one of her two controls
 * and labelled one target before her package was written; then her laptop, where she labels one more.
 */
function leadAndLaptop() {
  const dir = tmp()
  const lead = seedProject(dir, { items: 6, variants: 2, facts: 2, annotators: 3 })
  const db = lead.ws.db
  const ds = lead.ds.id
  setPlan(db, {
    datasetId: ds,
    k: 2,
    policy: 'fixed',
    seed: 7,
    annotators: ['ann0', 'ann1', 'ann2'].map((name) => ({ name, hourlyRate: null })),
  })
  const ann1 = lead.people[1]!.id
  const hers = (
    db
      .prepare(
        `SELECT t.id FROM targets t JOIN assignments a ON a.item_id = t.item_id
         WHERE a.annotator_id = ? ORDER BY t.id`,
      )
      .all(ann1) as { id: number }[]
  ).map((r) => r.id)
  const [answered, open, work] = hers as [number, number, number]
  setControls(
    db,
    ds,
    {
      fromGold: [],
      answers: [
        { targetId: answered, verdict: 'true' },
        { targetId: open, verdict: 'false' },
      ],
    },
    'now',
  )
  lead.ws.labels.save({ targetId: answered, annotatorId: ann1, verdict: 'true', seconds: 3 })
  lead.ws.labels.save({ targetId: work, annotatorId: ann1, verdict: 'true', seconds: 3 })
  const pkg = join(dir, 'ann1.factlab-package.jsonl')
  exportPackage(lead.ws, { datasetId: ds, annotator: 'ann1', out: pkg })
  const atLead = projectDashboard(db, ds)
  const items = (
    db.prepare('SELECT COUNT(*) AS n FROM assignments WHERE annotator_id = ?').get(ann1) as { n: number }
  ).n
  lead.ws.close()

  const laptop = Workspace.open(freshWorkspaceFile(join(dir, 'laptop.factlab')))
  const { datasetId } = openPackage(laptop, pkg)
  const me = (laptop.db.prepare("SELECT id FROM annotators WHERE name = 'ann1'").get() as { id: number }).id
  const next = (
    laptop.db
      .prepare(
        `SELECT t.id FROM targets t JOIN assignments a ON a.item_id = t.item_id
         WHERE a.annotator_id = ? AND NOT EXISTS (SELECT 1 FROM labels l WHERE l.target_id = t.id)
           AND NOT EXISTS (SELECT 1 FROM controls c WHERE c.target_id = t.id) ORDER BY t.id`,
      )
      .get(me) as { id: number }
  ).id
  laptop.labels.save({ targetId: next, annotatorId: me, verdict: 'false', seconds: 3 })
  return { atLead, items, laptop, datasetId }
}

describe('a laptop’s dashboard covers its package’s share only', () => {
  it('counts her share as the package carried it, says how many controls came, and forecasts her share alone', () => {
    const { atLead, items, laptop, datasetId } = leadAndLaptop()
    const d = projectDashboard(laptop.db, datasetId)
    const leadsView = atLead.annotators.find((a) => a.name === 'ann1')!
    // The control she had answered travels as an ordinary target: one more in her share here, done.
    expect(d.laptop).toEqual({
      annotator: 'ann1',
      items,
      targets: leadsView.assigned! + 1,
      done: leadsView.assignedDone + 2,
      controls: 1,
    })
    // Time left: her remaining targets at her median of 3 s, not the whole plan's k × targets.
    const left = d.laptop!.targets - d.laptop!.done
    expect(d.projectedHours! * 3600).toBeCloseTo(left * 3, 6)
    expect(d.labelsWanted - d.labelsTowardsK).toBeGreaterThan(left)
    laptop.close()
  })

  it('is not there in the lead’s workspace', () => {
    const { atLead, laptop } = leadAndLaptop()
    expect(atLead).not.toHaveProperty('laptop')
    expect(atLead.projectedHours! * 3600).toBeCloseTo((atLead.labelsWanted - atLead.labelsTowardsK) * 3, 6)
    laptop.close()
  })
})
