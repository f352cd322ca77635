import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { resolveGold } from '../../src/main/labels/gold'
import { datasetStats, listDatasets } from '../../src/main/store/repos/datasets'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('demo workspace', () => {
  it('loads a WikiEval-style dataset with two annotators who sometimes disagree', () => {
    const ws = Workspace.open(join(tmp(), 'demo.factlab'))
    expect(loadDemoIfEmpty(ws).loaded).toBe(true)
    const [ds] = listDatasets(ws.db)
    const stats = datasetStats(ws.db, ds!.id)
    expect(stats.items).toBe(12)
    expect(stats.candidates).toBe(36)
    expect(stats.targets).toBe(stats.units * 3)
    expect(stats.labelledBy.alex).toBe(stats.targets)
    expect(stats.labelledBy.sam).toBeGreaterThan(0)
    expect(stats.labelledBy.sam).toBeLessThan(stats.targets)
    const disputed = ws.db
      .prepare(
        'SELECT COUNT(*) AS n FROM (SELECT target_id FROM labels GROUP BY target_id HAVING COUNT(DISTINCT verdict) > 1)',
      )
      .get() as { n: number }
    expect(disputed.n).toBeGreaterThanOrEqual(4)
    // Disputed targets have no majority, so gold covers fewer targets than were labelled.
    expect(resolveGold(ws.db, ds!.id).size).toBe(stats.targets - disputed.n)
    ws.close()
  })

  it('leaves a workspace that already has data alone', () => {
    const ws = Workspace.open(join(tmp(), 'demo.factlab'))
    loadDemoIfEmpty(ws)
    expect(loadDemoIfEmpty(ws).loaded).toBe(false)
    expect(listDatasets(ws.db)).toHaveLength(1)
    ws.close()
  })
})
