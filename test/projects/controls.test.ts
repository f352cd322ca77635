import { describe, expect, it } from 'vitest'
import { setGold } from '../../src/main/labels/gold'
import { seedWorkspace } from '../annotate/fixture'
import { rpcOn } from '../helpers/app'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

interface Dash {
  annotators: {
    name: string
    controls: {
      answered: number
      correct: number
      accuracy: number | null
      interval: { low: number; high: number } | null
    }
  }[]
  controls: { count: number }
}

describe('control items', () => {
  it('mixes controls into the queue at the plan rate and scores each annotator on them', async () => {
    const { ctx, ds, ana, ben, items } = seedWorkspace(tmp())
    const rpc = rpcOn(ctx)
    const [c1, c2] = items[0]!.targets.answer!
    await rpc.value('projects.setControls', {
      datasetId: ds.id,
      answers: [
        { targetId: c1, verdict: 'true' },
        { targetId: c2, verdict: 'false' },
      ],
    })
    await rpc.value('projects.setPlan', { datasetId: ds.id, k: 1, controlRate: 1 })
    // At rate 1 the queue serves the controls first; the reply does not mark them.
    const first = await rpc.value<{ targetId: number }>('annotate.next', {
      datasetId: ds.id,
      annotatorId: ana.id,
    })
    expect([c1, c2]).toContain(first.targetId)
    await rpc.value('annotate.save', { targetId: c1, annotatorId: ana.id, verdict: 'true' })
    await rpc.value('annotate.save', { targetId: c2, annotatorId: ana.id, verdict: 'true' }) // wrong
    await rpc.value('annotate.save', { targetId: c1, annotatorId: ben.id, verdict: 'true' })
    const d = await rpc.value<Dash>('projects.dashboard', { datasetId: ds.id })
    const a = d.annotators.find((x) => x.name === 'ana')!.controls
    const b = d.annotators.find((x) => x.name === 'ben')!.controls
    expect(a).toMatchObject({ answered: 2, correct: 1, accuracy: 0.5 })
    expect(b).toMatchObject({ answered: 1, correct: 1, accuracy: 1 })
    expect(a.interval!.low).toBeLessThan(0.5)
    expect(a.interval!.high).toBeGreaterThan(0.5)
    // Controls are not work: once answered, the queue moves on to real targets.
    const next = await rpc.value<{ targetId: number }>('annotate.next', {
      datasetId: ds.id,
      annotatorId: ana.id,
    })
    expect([c1, c2]).not.toContain(next.targetId)
    ctx.close()
  })

  it('refuses a control whose answer contradicts an adjudicated decision, marking nothing', async () => {
    const { ctx, ds, ana, items } = seedWorkspace(tmp())
    const rpc = rpcOn(ctx)
    const [t1, t2] = items[1]!.targets.answer!
    setGold(ctx.workspace.db, {
      targetId: t1!,
      verdict: 'false',
      source: 'adjudicated',
      adjudicatorId: ana.id,
    })
    const r = await rpc.call('projects.setControls', {
      datasetId: ds.id,
      answers: [
        { targetId: t2, verdict: 'true' },
        { targetId: t1, verdict: 'true' },
      ],
    })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toMatch(/disagrees with the adjudicated gold "false"/)
    expect(await rpc.value('projects.controls', { datasetId: ds.id })).toEqual([])
    // From gold it takes the adjudicated answer.
    await rpc.value('projects.setControls', { datasetId: ds.id, fromGold: [t1] })
    expect(await rpc.value('projects.controls', { datasetId: ds.id })).toEqual([
      { targetId: t1, verdict: 'false', source: 'gold' },
    ])
    ctx.close()
  })
})
