import { describe, expect, it } from 'vitest'
import { openAnnotateView } from '../../src/main/annotate/view'
import { setPlan } from '../../src/main/projects/plan'
import { focusTarget, labelVerdict, nextUnlabelled, withList } from '../../src/renderer/src/actions/annotate'
import type { AnnotateState } from '../../src/renderer/src/actions/types'
import { tmpDirs } from '../helpers/tmp'
import { labelCounts, seedProject } from './seed'

const tmp = tmpDirs()

describe('the Annotate view under a plan', () => {
  it('marks the targets others have taken to k, focuses past them, and "next unlabelled" skips them', () => {
    const { ws, ds, targets, people } = seedProject(tmp(), { items: 1, variants: 1, facts: 3, annotators: 3 })
    const [a, b, c] = people
    setPlan(ws.db, { datasetId: ds.id, k: 2, policy: 'open' })
    // The first fact has its two labels from a and b.
    ws.labels.save({ targetId: targets[0]!, annotatorId: a!.id, verdict: 'true' })
    ws.labels.save({ targetId: targets[0]!, annotatorId: b!.id, verdict: 'true' })
    const view = openAnnotateView(ws.db, {
      datasetId: ds.id,
      annotatorId: c!.id,
      itemId: undefined,
      blind: false,
    })
    expect(view.targets.map((t) => t.settled ?? false)).toEqual([true, false, false])
    expect(view.focusTargetId).toBe(targets[1])
    // b still sees it as theirs, labelled, not settled.
    const forB = openAnnotateView(ws.db, { datasetId: ds.id, annotatorId: b!.id, blind: false })
    expect(forB.targets.some((t) => t.settled)).toBe(false)

    const state: AnnotateState = {
      order: [...targets],
      focus: null,
      labels: {},
      undo: [],
      settled: [targets[0]!],
    }
    expect(nextUnlabelled.perform(state, undefined).state.focus).toBe(targets[1])
    ws.close()
  })

  it('a run of verdict keys passes the units others took to k; a unit picked by hand is labelled past k', () => {
    const { ws, ds, targets, people } = seedProject(tmp(), { items: 1, variants: 1, facts: 4, annotators: 3 })
    const [a, b, c] = people
    setPlan(ws.db, { datasetId: ds.id, k: 2, policy: 'open' })
    // Facts 2 and 4 already have their two labels; c starts on fact 1.
    for (const t of [targets[1]!, targets[3]!])
      for (const p of [a!, b!]) ws.labels.save({ targetId: t, annotatorId: p.id, verdict: 'true' })
    const view = openAnnotateView(ws.db, { datasetId: ds.id, annotatorId: c!.id, blind: false })
    let state: AnnotateState = {
      ...withList({ order: [], focus: null, labels: {}, undo: [] }, [...targets], {}, targets[0]!),
      settled: view.targets.filter((t) => t.settled).map((t) => t.targetId),
    }
    // c presses "1" four times, saving each label as the view does.
    const press = () => {
      const r = labelVerdict.perform(state, 'true')
      state = r.state
      for (const e of r.effects)
        if (e.type === 'save')
          ws.labels.save({ targetId: e.targetId, annotatorId: c!.id, verdict: e.label.verdict })
    }
    press()
    expect(state.focus).toBe(targets[2])
    press()
    // Nothing after fact 3 is open for c: the focus stays there instead of landing on fact 4.
    expect(state.focus).toBe(targets[2])
    press()
    press()
    const counts = labelCounts(ws, ds.id)
    expect(targets.map((t) => counts.get(t))).toEqual([1, 2, 1, 2])

    // Clicking fact 4 and giving it a verdict is a deliberate label past k, and it is kept.
    state = focusTarget.perform(state, targets[3]!).state
    press()
    expect(labelCounts(ws, ds.id).get(targets[3]!)).toBe(3)
    ws.close()
  })
})
