import { describe, expect, it } from 'vitest'
import type { DatasetMetrics } from '../../src/shared/contract/metrics'
import { seedWorkspace } from '../annotate/fixture'
import { rpcOn } from '../helpers/app'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

interface Summary {
  n: number
  percent: number | null
}

describe('controls and guidelines versions in the figures', () => {
  it('leaves controls out of agreement and judge figures unless asked, and splits agreement by guidelines version', async () => {
    const { ctx, ds, ana, ben, items, addVerdict } = seedWorkspace(tmp())
    const rpc = rpcOn(ctx)
    const all = items.flatMap((i) => [...i.targets.answer!, ...i.targets.poor_answer!])
    const save = (t: number, annotatorId: number, verdict: string) =>
      rpc.value('annotate.save', { targetId: t, annotatorId, verdict })
    await rpc.value('projects.saveGuidelines', { datasetId: ds.id, body: 'First rules.' })
    // Under version 1 the two agree on four targets.
    for (const t of all.slice(0, 4)) {
      await save(t, ana.id, 'true')
      await save(t, ben.id, 'true')
      addVerdict(t, 'true')
    }
    await rpc.value('projects.saveGuidelines', { datasetId: ds.id, body: 'Second rules.' })
    // Under version 2 they disagree on two.
    for (const t of all.slice(4, 6)) {
      await save(t, ana.id, 'true')
      await save(t, ben.id, 'false')
      addVerdict(t, 'true')
    }
    const summary = (input: object) => rpc.value<Summary>('agreement.summary', { datasetId: ds.id, ...input })
    expect((await summary({})).n).toBe(6)
    expect(await summary({ guidelinesVersion: 1 })).toMatchObject({ n: 4, percent: 1 })
    expect(await summary({ guidelinesVersion: 2 })).toMatchObject({ n: 2, percent: 0 })

    // Two of the agreed targets become controls: gone from agreement and from the judge's n.
    await rpc.value('projects.setControls', {
      datasetId: ds.id,
      answers: all.slice(0, 2).map((t) => ({ targetId: t, verdict: 'true' })),
    })
    expect((await summary({})).n).toBe(4)
    expect((await summary({ includeControls: true })).n).toBe(6)
    const judge = async (includeControls?: boolean) =>
      (await rpc.value<DatasetMetrics>('metrics.compare', { datasetId: ds.id, includeControls })).judges[0]!.n
    const withControls = await judge(true)
    expect(await judge()).toBe(withControls - 2)
    ctx.close()
  })
})
