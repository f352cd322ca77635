import { describe, expect, it } from 'vitest'
import { costPoints } from '../../src/shared/charts/costError'
import type { DatasetMetrics } from '../../src/shared/contract/metrics'
import { toJsonReport } from '../../src/shared/metricsJson'
import { seedWorkspace } from '../annotate/fixture'
import { rpcOn } from '../helpers/app'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('people on the cost axis', () => {
  it("costs a person's own active hours on the judges' targets, and that per 1,000 of the labels the hours were spent on", async () => {
    const { ctx, ds, ana, ben, items } = seedWorkspace(tmp())
    const rpc = rpcOn(ctx)
    await rpc.value('projects.setPlan', {
      datasetId: ds.id,
      k: 2,
      hourlyRate: 20,
      annotators: [{ name: 'ana', hourlyRate: 36 }, { name: 'ben' }],
    })
    const all = items.flatMap((i) => [...i.targets.answer!, ...i.targets.poor_answer!])
    // The last target is a control: the judges are not scored on it, so nobody's time there counts.
    const control = all[11]!
    await rpc.value('projects.setControls', {
      datasetId: ds.id,
      answers: [{ targetId: control, verdict: 'true' }],
    })
    // ana labels everything: 10 s on each of the first six targets, 30 s on the next five, 100 s on the control.
    for (const [i, t] of all.entries()) {
      const seconds = t === control ? 100 : i < 6 ? 10 : 30
      await rpc.value('annotate.save', { targetId: t, annotatorId: ana.id, verdict: 'true', seconds })
    }
    // ben labels four targets in the app, 45 s each, and two more from the CLI, which records no time.
    for (const t of all.slice(0, 4))
      await rpc.value('annotate.save', { targetId: t, annotatorId: ben.id, verdict: 'true', seconds: 45 })
    for (const t of all.slice(4, 6))
      await rpc.value('annotate.save', { targetId: t, annotatorId: ben.id, verdict: 'true' })

    const m = await rpc.value<DatasetMetrics>('metrics.compare', { datasetId: ds.id })
    expect(m.targets).toBe(11)
    const a = m.humans.find((h) => h.annotator === 'ana')!
    const b = m.humans.find((h) => h.annotator === 'ben')!
    // By hand. ana: 6 × 10 + 5 × 30 = 210 s = 0.058333 h, × 36 an hour = 2.10; over 11 timed
    // labels, 2.10 / 11 × 1000 = 190.909 per 1,000.
    expect(a).toMatchObject({ activeSeconds: 210, labelled: 11, timedLabels: 11 })
    expect(a.cost).toBeCloseTo(2.1, 9)
    expect(a.costPer1000).toBeCloseTo(190.909090909, 6)
    // ben has no rate of his own, so the dataset's 20 an hour: 4 × 45 s = 180 s = 0.05 h → 1.00,
    // over the 4 labels that time was spent on → 250 per 1,000. Over all 6 labels it would read
    // 166.67: his two untimed labels would make him look a third cheaper than he is.
    expect(b).toMatchObject({ activeSeconds: 180, labelled: 6, timedLabels: 4 })
    expect(b.cost).toBeCloseTo(1, 9)
    expect(b.costPer1000).toBeCloseTo(250, 9)

    // The report carries the same figures, and the Compare view's chart draws both people from it,
    // on the axis the judges are on: cost per 1,000 judged targets, not their totals.
    const json = toJsonReport(m)
    expect(json.humans.find((h) => h.annotator === 'ben')).toMatchObject({
      active_seconds: 180,
      labelled: 6,
      timed_labels: 4,
      cost: b.cost,
      cost_per_1000: b.costPer1000,
    })
    const points = costPoints(json)
    expect(points.find((p) => p.label === 'ana (human)')?.cost).toBeCloseTo(190.909090909, 6)
    expect(points.find((p) => p.label === 'ben (human)')?.cost).toBeCloseTo(250, 9)
    // The Markdown report's humans table: 0.05 active hours, $1.00, $250.00 per 1,000 and the
    // two untimed labels it leaves out.
    const md = await rpc.value<{ text: string }>('metrics.report', { datasetId: ds.id, format: 'md' })
    const benRow = md.text.split('\n').find((l) => l.startsWith('| ben |'))
    expect(benRow).toMatch(/\| 0\.05 \| \$1\.00 \| \$250\.00 \(2 untimed labels left out\) \|$/)
    const anaRow = md.text.split('\n').find((l) => l.startsWith('| ana |'))
    expect(anaRow).toMatch(/\| \$190\.91 \|$/)
    ctx.close()
  })

  it('gives no point to a person without a rate', async () => {
    const { ctx, ds, ana, ben, items } = seedWorkspace(tmp())
    const rpc = rpcOn(ctx)
    await rpc.value('projects.setPlan', {
      datasetId: ds.id,
      k: 2,
      annotators: [{ name: 'ana', hourlyRate: 36 }, { name: 'ben' }],
    })
    for (const t of items[0]!.targets.answer!) {
      await rpc.value('annotate.save', { targetId: t, annotatorId: ana.id, verdict: 'true', seconds: 10 })
      await rpc.value('annotate.save', { targetId: t, annotatorId: ben.id, verdict: 'false', seconds: 10 })
    }
    const m = await rpc.value<DatasetMetrics>('metrics.compare', { datasetId: ds.id })
    expect(m.humans.find((h) => h.annotator === 'ana')?.cost).toBeCloseTo(0.2, 9)
    expect(m.humans.find((h) => h.annotator === 'ben')?.cost ?? null).toBeNull()
    expect(costPoints(toJsonReport(m)).some((p) => p.label.startsWith('ben'))).toBe(false)
    ctx.close()
  })
})
