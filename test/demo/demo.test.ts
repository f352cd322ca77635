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

  it('list every shipped run in the Judges view with its work counted, none as "done 0/0"', async () => {
    const { runInfos } = await import('../../src/main/runs/queries')
    const ws = Workspace.open(join(tmp(), 'demo.factlab'))
    const { datasetId } = loadDemoIfEmpty(ws)
    const runs = runInfos(ws.db, datasetId!, () => false)
    expect(runs).toHaveLength(4)
    for (const r of runs) {
      expect(r.status).toBe('done')
      expect(r.total).toBeGreaterThan(0)
    }
    // The lexical baseline counts one task per candidate, as a lexical run made in the app does.
    expect(runs.find((r) => r.provider === 'lexical')!.total).toBe(36)
    ws.close()
  })
})

describe('demo judge runs', () => {
  it('ship three illustrative runs and the lexical baseline, so Compare has figures on first start', async () => {
    const { computeDatasetMetrics } = await import('../../src/main/metrics/service')
    const ws = Workspace.open(join(tmp(), 'demo.factlab'))
    const { datasetId } = loadDemoIfEmpty(ws)
    const m = computeDatasetMetrics(ws.db, datasetId!)
    expect(m.judges.map((j) => j.model)).toEqual([
      'illustrative-careful-judge',
      'illustrative-quick-judge',
      'illustrative-midsize-judge',
      'rougeL',
    ])
    expect(m.judges.map((j) => j.provider)).toEqual(['imported', 'imported', 'imported', 'lexical'])
    for (const j of m.judges) {
      expect(j.n).toBeGreaterThan(100)
      expect(j.errorRate).not.toBeNull()
      expect(j.confusion.binary.flat().reduce((a, b) => a + b, 0)).toBeGreaterThan(0)
    }
    // Costs differ, so the cost chart has a spread; the lexical baseline is free.
    expect(new Set(m.judges.map((j) => j.cost)).size).toBe(4)
    expect(m.judges.at(-1)!.cost).toBe(0)
    expect(m.mcnemar).toHaveLength(6)
    // The careful illustrative judge beats the quick one, as its name promises.
    expect(m.judges[0]!.errorRate!).toBeLessThan(m.judges[1]!.errorRate!)
    ws.close()
  })
})
