import { describe, expect, it } from 'vitest'
import {
  attachEvidence,
  KEY_ACTIONS,
  labelVerdict,
  next,
  nextItem,
  nextUnlabelled,
  nextVariant,
  note,
  prev,
  prevItem,
  prevVariant,
  removeEvidence,
  setNote,
  showKeys,
  toggleBlind,
  undo,
  withList,
} from '../../src/renderer/src/actions/annotate'
import { verdictKeys, verdictText } from '../../src/renderer/src/actions/keymap'
import { footerHints, keyName, keyTable, sheetLines } from '../../src/renderer/src/actions/keys'
import type { AnnotateState, KeyEnv } from '../../src/renderer/src/actions/types'
import type { EvidenceSpan } from '../../src/shared/domain'
import type { LabelSchema } from '../../src/shared/labelSchemas'
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

  it('Enter goes to the next unlabelled unit here, or asks the server when none is left, but never past an open focus', () => {
    let s = labelVerdict.perform(start(), 'true').state // 10 labelled, focus 11
    s = labelVerdict.perform(s, 'true').state // 11 labelled, focus 12
    const back = nextUnlabelled.perform({ ...s, focus: 10 })
    expect(back.state.focus).toBe(12)
    // On a unit still waiting for a label (where a label just moved the focus), it stays and says why.
    const stay = nextUnlabelled.perform(s)
    expect(stay.state.focus).toBe(12)
    expect(stay.effects).toMatchObject([{ type: 'notice' }])
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

  it("removes the focused unit's last piece of evidence by key, and says when there is none", () => {
    let s = attachEvidence.perform(start(), { pane: 'reference', start: 40, end: 50 }).state
    s = attachEvidence.perform(s, { pane: 'candidate', start: 1, end: 4 }).state
    const r = removeEvidence.perform(s, undefined)
    expect(r.state.labels[10]?.evidence).toEqual([{ pane: 'candidate', start: 1, end: 4 }])
    expect(r.effects[0]).toMatchObject({ type: 'save', targetId: 10 })
    s = removeEvidence.perform(r.state, undefined).state
    expect(s.labels[10]?.evidence).toEqual([])
    expect(removeEvidence.perform(s, undefined).effects).toEqual([
      { type: 'notice', message: 'This unit has no evidence to remove' },
    ])
    // Undo puts the removed passage back.
    expect(undo.perform(s).state.labels[10]?.evidence).toHaveLength(1)
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

describe('keys come from the actions', () => {
  const env = (schema: LabelSchema, selection: EvidenceSpan | null = null): KeyEnv => ({
    verdictKeys: verdictKeys(schema),
    selection: () => selection,
  })

  it('binds each key once, and only the digits the schema uses', () => {
    const rows = keyTable(KEY_ACTIONS, env(FAAF_SCHEMA))
    const keys = rows.map((r) => r.key)
    expect(new Set(keys).size).toBe(keys.length)
    expect(rows.filter((r) => r.action === labelVerdict).map((r) => [r.key, r.arg()])).toEqual([
      ['1', 'true'],
      ['2', 'false'],
      ['3', 'not_clear'],
    ])
    for (const a of [
      next,
      prev,
      nextUnlabelled,
      undo,
      note,
      attachEvidence,
      removeEvidence,
      nextVariant,
      prevItem,
      toggleBlind,
      showKeys,
    ])
      expect(rows.filter((r) => r.action === a).map((r) => r.key)).toEqual(a.keys)
    const scale = keyTable(KEY_ACTIONS, env(numericSchema('msrpar', 0, 5, 3)))
    expect(scale.filter((r) => r.action === labelVerdict).map((r) => r.key)).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
    ])
  })

  it('reads the selection when the evidence key is pressed, not when it is bound', () => {
    let selected: EvidenceSpan | null = null
    const rows = keyTable(KEY_ACTIONS, { verdictKeys: verdictKeys(FAAF_SCHEMA), selection: () => selected })
    const e = rows.find((r) => r.key === 'e')!
    selected = { pane: 'reference', start: 2, end: 8 }
    const r = e.action.perform(start(), e.arg())
    expect(r.state.labels[10]?.evidence).toEqual([selected])
  })

  it('lets only moving repeat while a key is held', () => {
    const repeating = KEY_ACTIONS.filter((a) => a.repeat).map((a) => a.name)
    expect(repeating).toEqual(['next', 'prev'])
  })

  it('writes the footer from the actions: verdicts first, shared hints on one entry', () => {
    const hints = footerHints(keyTable(KEY_ACTIONS, env(FAAF_SCHEMA)))
    expect(hints.map((h) => `${h.keys.join('/')} ${h.hint}`)).toEqual([
      '1 True',
      '2 False',
      '3 Not clear',
      'j/k move',
      'Enter next unlabelled',
      'u undo',
      'e selection as evidence',
      'n note',
      'v variant',
      '[/] item',
      '[Shift]+? all keys',
    ])
    // A 0–9 scale shows six digits, not ten.
    const scale = footerHints(keyTable(KEY_ACTIONS, env(numericSchema('s', 0, 9, 3))))
    expect(scale.filter((h) => /^\d$/.test(h.keys[0]!))).toHaveLength(6)
  })

  it('lists every key in the cheat sheet, one line per thing it does', () => {
    const rows = keyTable(KEY_ACTIONS, env(FAAF_SCHEMA))
    const lines = sheetLines(rows)
    expect(lines.flatMap((l) => l.keys).sort()).toEqual(rows.map((r) => r.key).sort())
    expect(lines.find((l) => l.label === next.label)?.keys).toEqual(['j', 'ArrowDown'])
    expect(lines.find((l) => l.label === 'Verdict: Not clear')?.keys).toEqual(['3'])
    expect(lines.find((l) => l.label === undo.label)?.keys).toEqual(['u', '$mod+z'])
    // Nothing the keyboard can do is left without a key.
    expect(lines.every((l) => l.keys.length > 0)).toBe(true)
    expect(lines.find((l) => l.label === removeEvidence.label)?.keys).toEqual(['Shift+E'])
    expect(lines.find((l) => l.label === toggleBlind.label)?.keys).toEqual(['b'])
  })

  it('names keys as a person reads them', () => {
    expect(keyName('$mod+z', false)).toBe('Ctrl+Z')
    expect(keyName('$mod+z', true)).toBe('⌘Z')
    expect(keyName('ArrowDown', false)).toBe('↓')
    expect(keyName('[Shift]+?', false)).toBe('?')
    expect(keyName('Shift+V', false)).toBe('Shift+V')
    expect(keyName(']', false)).toBe(']')
  })

  it('asks the view to switch variant or item, or to show the keys, without touching labels', () => {
    const s = start()
    expect(nextVariant.perform(s)).toEqual({ state: s, effects: [{ type: 'variant', delta: 1 }] })
    expect(prevVariant.perform(s).effects).toEqual([{ type: 'variant', delta: -1 }])
    expect(nextItem.perform(s).effects).toEqual([{ type: 'item', step: 'next' }])
    expect(prevItem.perform(s).effects).toEqual([{ type: 'item', step: 'prev' }])
    expect(showKeys.perform(s)).toEqual({ state: s, effects: [{ type: 'showKeys' }] })
    expect(toggleBlind.perform(s)).toEqual({ state: s, effects: [{ type: 'blind' }] })
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
