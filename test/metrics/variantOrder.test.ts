import { describe, expect, it } from 'vitest'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { projectDashboard } from '../../src/main/projects/dashboard'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

describe('the variants of a dataset', () => {
  it('come in the dataset’s order in metrics and on the Project dashboard, whatever order the facts were made in', () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer', 'ungrounded', 'poor'], facts: 2 })
    // The answers' facts made last (as when a lead regenerates them): their targets now come after
    // the others', which used to put "answer" last in `metrics` while the dashboard had it first.
    const answers = fx.targets.filter((t) => t.variant === 'answer').map((t) => t.id)
    const bump = fx.db.prepare('UPDATE targets SET id = id + 100000 WHERE id = ?')
    for (const id of answers) bump.run(id)
    const m = computeDatasetMetrics(fx.db, fx.datasetId)
    expect(m.variants).toEqual(['answer', 'ungrounded', 'poor'])
    const dashboard = projectDashboard(fx.db, fx.datasetId)
    expect(dashboard.byVariant.map((v) => v.variant)).toEqual(m.variants)
    fx.db.close()
  })
})
