import { describe, expect, it } from 'vitest'
import { projectDashboard } from '../../src/main/projects/dashboard'
import { setPlan } from '../../src/main/projects/plan'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { outsidePlanNote } from '../../src/shared/outsidePlan'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from './seed'

const tmp = tmpDirs()
const app = testApps()

describe('people outside the plan', () => {
  it('are named, with where their labels count, by the Project view, Agreement/Compare and metrics alike', async () => {
    const { ws, ds, targets } = seedProject(tmp(), { items: 2, variants: 1, facts: 2, annotators: 2 })
    setPlan(ws.db, {
      datasetId: ds.id,
      k: 2,
      policy: 'fixed',
      annotators: [{ name: 'ann0' }, { name: 'ann1' }],
    })
    const dora = ensureAnnotator(ws.db, 'dora')
    ws.labels.save({ targetId: targets[0]!, annotatorId: dora.id, verdict: 'true' })
    ws.labels.save({ targetId: targets[1]!, annotatorId: dora.id, verdict: 'false' })
    // The dashboard keeps her out of progress and says so.
    const d = projectDashboard(ws.db, ds.id)
    expect(d.notCounted.people.find((p) => p.name === 'dora')).toMatchObject({ outsideAssignment: 2 })
    const file = ws.file
    ws.close()

    const lead = app(file)
    expect(await lead.value('projects.outsidePlan', { datasetId: ds.id })).toEqual({ people: ['dora'] })
    const note = outsidePlanNote(['dora'])
    expect(note).toBe(
      "dora is not in the plan: their labels count here (agreement, gold, Compare) like anyone's; only the Project view's progress towards k leaves them out.",
    )
    const metrics = await cli(['metrics', '--workspace', file, '--dataset', 'wiki'])
    expect(metrics.err).toBe('')
    expect(metrics.out).toContain(note)
  })
})
