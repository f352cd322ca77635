import { describe, expect, it } from 'vitest'
import { setGold } from '../../src/main/labels/gold'
import { costPoints } from '../../src/shared/charts/costError'
import type { DatasetMetrics } from '../../src/shared/contract/metrics'
import { toJsonReport } from '../../src/shared/metricsJson'
import { seedWorkspace } from '../annotate/fixture'
import { rpcOn } from '../helpers/app'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('people on the cost axis', () => {
  it('gives an annotator with an hourly rate a cost over the same targets, and a cost per 1,000', async () => {
    const { ctx, ds, ana, ben, items } = seedWorkspace(tmp())
    const rpc = rpcOn(ctx)
    await rpc.value('projects.setPlan', {
      datasetId: ds.id,
      k: 2,
      annotators: [{ name: 'ana', hourlyRate: 36 }, { name: 'ben' }],
    })
    const all = items.flatMap((i) => [...i.targets.answer!, ...i.targets.poor_answer!])
    for (const t of all) {
      await rpc.value('annotate.save', { targetId: t, annotatorId: ana.id, verdict: 'true', seconds: 10 })
      await rpc.value('annotate.save', { targetId: t, annotatorId: ben.id, verdict: 'true', seconds: 20 })
    }
    setGold(ctx.workspace.db, {
      targetId: all[0]!,
      verdict: 'true',
      source: 'adjudicated',
      adjudicatorId: ana.id,
    })
    const m = await rpc.value<DatasetMetrics>('metrics.compare', { datasetId: ds.id })
    const a = m.humans.find((h) => h.annotator === 'ana')!
    // 10 s a label at 36 an hour is 0.1 a label: 0.1 × the dataset's 12 targets, and 100 per 1,000.
    expect(a.cost).toBeCloseTo(0.1 * m.targets, 6)
    expect(a.costPer1000).toBeCloseTo(100, 6)
    // ben has no rate of his own and the dataset has none: no point for him.
    expect(m.humans.find((h) => h.annotator === 'ben')?.cost ?? null).toBeNull()
    // The Compare view's chart draws ana among the judges, from the data it receives.
    const points = costPoints(toJsonReport(m))
    expect(points.find((p) => p.label === 'ana (human)')?.cost).toBeCloseTo(a.cost!, 6)
    expect(points.some((p) => p.label.startsWith('ben'))).toBe(false)
    ctx.close()
  })
})
