import { describe, expect, it } from 'vitest'
import { openAnnotateView } from '../../src/main/annotate/view'
import { setPlan } from '../../src/main/projects/plan'
import { nextUnlabelled } from '../../src/renderer/src/actions/annotate'
import type { AnnotateState } from '../../src/renderer/src/actions/types'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from './seed'

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
})
