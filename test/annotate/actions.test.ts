import { describe, expect, it } from 'vitest'
import {
  attachEvidence,
  labelVerdict,
  next,
  nextUnlabelled,
  note,
  prev,
  removeEvidence,
  setNote,
  undo,
  withList,
} from '../../src/renderer/src/actions/annotate'
import { verdictKeys, verdictText } from '../../src/renderer/src/actions/keymap'
import type { AnnotateState } from '../../src/renderer/src/actions/types'
import { FAAF_SCHEMA, holisticSchema, numericSchema } from '../../src/shared/labelSchemas'

const start = (): AnnotateState => ({ order: [10, 11, 12], focus: 10, labels: {}, undo: [] })

describe('annotate actions', () => {
  it('labels the focused unit, asks to save it and moves to the next unit', () => {
    const { state, effects } = labelVerdict.perform(start(), 'true')
    expect(state.labels[10]?.verdict).toBe('true')
    expect(state.focus).toBe(11)
    expect(effects).toEqual([
      { type: 'save', targetId: 10, label: { verdict: 'true', evidence: [], note: null } },
    ])
  })

  it('stays on the last unit after labelling it', () => {
    const s = { ...start(), focus: 12 }
    expect(labelVerdict.perform(s, 'false').state.focus).toBe(12)
  })

  it('moves with j/k without leaving the list', () => {
    let s = start()
    s = prev.perform(s).state
    expect(s.focus).toBe(10)
    s = next.perform(next.perform(next.perform(s).state).state).state
    expect(s.focus).toBe(12)
  })

  it('undo restores the previous verdict, evidence and note, and focuses that unit', () => {
    let s = labelVerdict.perform(start(), 'true').state
    s = attachEvidence.perform({ ...s, focus: 10 }, { pane: 'candidate', start: 3, end: 9 }).state
    s = labelVerdict.perform({ ...s, focus: 10 }, 'false').state
    let r = undo.perform({ ...s, focus: 12 })
    expect(r.state.focus).toBe(10)
    expect(r.state.labels[10]).toEqual({
      verdict: 'true',
      evidence: [{ pane: 'candidate', start: 3, end: 9 }],
      note: null,
    })
    expect(r.effects[0]).toMatchObject({ type: 'save', targetId: 10 })
    r = undo.perform(undo.perform(r.state).state)
    expect(r.state.labels[10]).toEqual({ verdict: null, evidence: [], note: null })
    expect(undo.perform(r.state).effects).toEqual([{ type: 'notice', message: 'Nothing to undo' }])
  })

  it('Enter goes to the next unlabelled unit here, or asks the server when none is left', () => {
    let s = labelVerdict.perform(start(), 'true').state // 10 labelled, focus 11
    s = labelVerdict.perform(s, 'true').state // 11 labelled, focus 12
    const back = nextUnlabelled.perform({ ...s, focus: 10 })
    expect(back.state.focus).toBe(12)
    s = labelVerdict.perform(s, 'true').state
    expect(nextUnlabelled.perform(s).effects).toEqual([{ type: 'nextUnlabelled', afterTargetId: 12 }])
  })

  it('attaches a selection once, in text order, and refuses without a selection', () => {
    let s = attachEvidence.perform(start(), { pane: 'reference', start: 40, end: 50 }).state
    s = attachEvidence.perform(s, { pane: 'reference', start: 5, end: 9 }).state
    expect(s.labels[10]?.evidence.map((e) => e.start)).toEqual([5, 40])
    expect(attachEvidence.perform(s, { pane: 'reference', start: 5, end: 9 }).effects[0]).toMatchObject({
      type: 'notice',
    })
    expect(attachEvidence.perform(s, null).effects[0]).toMatchObject({ type: 'notice' })
    s = removeEvidence.perform(s, { targetId: 10, index: 0 }).state
    expect(s.labels[10]?.evidence.map((e) => e.start)).toEqual([40])
  })

  it('opens the note editor for the focused unit and saves a changed note only', () => {
    expect(note.perform(start()).effects).toEqual([{ type: 'openNote', targetId: 10 }])
    const s = setNote.perform(start(), { targetId: 11, note: '  unsure  ' })
    expect(s.state.labels[11]?.note).toBe('unsure')
    expect(setNote.perform(s.state, { targetId: 11, note: 'unsure' }).effects).toEqual([])
    expect(setNote.perform(s.state, { targetId: 11, note: '' }).state.labels[11]?.note).toBeNull()
  })

  it('keeps labels and undo steps when the list changes to another variant', () => {
    const s = labelVerdict.perform(start(), 'true').state
    const other = withList(s, [20, 21], { 20: { verdict: 'false', evidence: [], note: null } }, null)
    expect(other.focus).toBe(20)
    expect(other.labels[10]?.verdict).toBe('true')
    const r = undo.perform(other)
    expect(r.effects[0]).toMatchObject({ targetId: 10 })
    expect(r.state.focus).toBe(20)
  })
})

describe('verdict keys', () => {
  it('numbers categorical verdicts in schema order', () => {
    expect(verdictKeys(FAAF_SCHEMA)).toEqual([
      { key: '1', verdict: 'true' },
      { key: '2', verdict: 'false' },
      { key: '3', verdict: 'not_clear' },
    ])
    expect(verdictKeys(holisticSchema()).map((k) => k.verdict)).toEqual(['pass', 'partially_pass', 'fail'])
  })

  it('uses the score itself as the key on a 0–5 scale', () => {
    expect(verdictKeys(numericSchema('msrpar', 0, 5, 3)).map((k) => `${k.key}:${k.verdict}`)).toEqual([
      '0:0',
      '1:1',
      '2:2',
      '3:3',
      '4:4',
      '5:5',
    ])
  })

  it('reads verdicts as words', () => {
    expect(verdictText('not_clear')).toBe('Not clear')
  })
})

describe('routes in the URL hash', async () => {
  const { hashToRoute, routeToHash } = await import('../../src/renderer/src/route')
  it('round-trips every view', () => {
    const routes = [
      { view: 'datasets' },
      { view: 'settings' },
      { view: 'judges' },
      { view: 'judges', datasetId: 2 },
      { view: 'items', datasetId: 3 },
      { view: 'annotate', datasetId: 3, targetId: 41 },
      { view: 'annotate', datasetId: 3, itemId: 7 },
      { view: 'units', datasetId: 1, itemId: 5 },
      { view: 'agreement', datasetId: 1 },
      { view: 'compare', datasetId: 1 },
    ] as const
    for (const r of routes) expect(hashToRoute(routeToHash(r))).toEqual(r)
  })

  it('sends an unknown or broken hash to the datasets list', () => {
    expect(hashToRoute('#/annotate/abc')).toEqual({ view: 'datasets' })
    expect(hashToRoute('')).toEqual({ view: 'datasets' })
    expect(hashToRoute('#/nope/1')).toEqual({ view: 'datasets' })
  })
})
