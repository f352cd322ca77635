import type { EvidenceSpan } from '../../../shared/domain'
import { verdictText } from './keymap'
import { type Action, type ActionResult, type AnnotateState, EMPTY_LABEL, type TargetLabel } from './types'

/** How many steps `u` can take back; older steps stay in the server's history. */
const UNDO_LIMIT = 200

const none = (state: AnnotateState): ActionResult => ({ state, effects: [] })

function notice(state: AnnotateState, message: string): ActionResult {
  return { state, effects: [{ type: 'notice', message }] }
}

export function labelOf(state: AnnotateState, targetId: number): TargetLabel {
  return state.labels[targetId] ?? EMPTY_LABEL
}

export function isLabelled(state: AnnotateState, targetId: number): boolean {
  return (state.labels[targetId]?.verdict ?? null) !== null
}

/** Writes a new label for one target, remembering the old one for undo. */
function change(
  state: AnnotateState,
  targetId: number,
  next: TargetLabel,
  focus = state.focus,
): ActionResult {
  const before = labelOf(state, targetId)
  const undo = [...state.undo, { targetId, before }].slice(-UNDO_LIMIT)
  return {
    state: { ...state, labels: { ...state.labels, [targetId]: next }, undo, focus },
    effects: [{ type: 'save', targetId, label: next }],
  }
}

function step(state: AnnotateState, delta: number): number | null {
  if (state.order.length === 0) return null
  const at = state.focus === null ? -1 : state.order.indexOf(state.focus)
  const i = Math.min(state.order.length - 1, Math.max(0, at + delta))
  return state.order[i] ?? null
}

/**
 * Gives the focused unit a verdict and moves to the next unit, so a run of labels is just keys.
 * Under a plan the move passes the units the plan has settled for me (k labels from others, or
 * not in my assignment), as `annotate.next` does: a run of keys never puts a label past k. Such
 * a unit is labelled only when picked by hand; with none left after it, the focus stays.
 */
export const labelVerdict: Action<string> = {
  name: 'labelVerdict',
  keys: ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'],
  label: 'Give the focused unit this verdict',
  // Only the digits the schema uses are bound, each named by its verdict.
  bindings: (env) =>
    env.verdictKeys
      .filter((k) => labelVerdict.keys.includes(k.key))
      .map((k) => ({
        key: k.key,
        label: `Verdict: ${verdictText(k.verdict)}`,
        hint: verdictText(k.verdict),
        arg: () => k.verdict,
      })),
  perform(state, verdict) {
    if (state.focus === null) return notice(state, 'No unit is focused')
    const at = state.order.indexOf(state.focus)
    const nextFocus = state.order.slice(at + 1).find((id) => !state.settled?.includes(id)) ?? state.focus
    return change(state, state.focus, { ...labelOf(state, state.focus), verdict }, nextFocus)
  },
}

export const next: Action = {
  name: 'next',
  keys: ['j', 'ArrowDown'],
  label: 'Next unit',
  hint: 'move',
  repeat: true,
  perform: (state) => none({ ...state, focus: step(state, 1) }),
}

export const prev: Action = {
  name: 'prev',
  keys: ['k', 'ArrowUp'],
  label: 'Previous unit',
  hint: 'move',
  repeat: true,
  perform: (state) => none({ ...state, focus: step(state, -1) }),
}

export const focusTarget: Action<number> = {
  name: 'focusTarget',
  keys: [],
  label: 'Focus a unit',
  perform: (state, targetId) => none(state.order.includes(targetId) ? { ...state, focus: targetId } : state),
}

/**
 * The next unit I have not labelled: in this list when there is one after the focus, otherwise
 * the server finds it (in a later variant or item, wrapping to the start). On a unit still
 * waiting for my label it stays: a label moves the focus on by itself, so an Enter pressed out of
 * habit right after one would otherwise leave the unit it landed on behind. Skipping is ↓.
 */
export const nextUnlabelled: Action = {
  name: 'nextUnlabelled',
  keys: ['Enter'],
  label: 'Next unlabelled unit',
  hint: 'next unlabelled',
  perform(state) {
    const here = state.focus
    if (here !== null && !isLabelled(state, here) && !state.settled?.includes(here))
      return {
        state,
        effects: [
          { type: 'notice', message: 'This unit is not labelled yet: label it, or press ↓ to skip it.' },
        ],
      }
    const at = state.focus === null ? -1 : state.order.indexOf(state.focus)
    const local = state.order
      .slice(at + 1)
      .find((id) => !isLabelled(state, id) && !state.settled?.includes(id))
    if (local !== undefined) return none({ ...state, focus: local })
    return { state, effects: [{ type: 'nextUnlabelled', afterTargetId: state.focus }] }
  },
}

/** Puts back the label as it was before the last change and focuses that unit. */
export const undo: Action = {
  name: 'undo',
  keys: ['u', '$mod+z'],
  label: 'Undo the last change',
  hint: 'undo',
  perform(state) {
    const last = state.undo[state.undo.length - 1]
    if (!last) return notice(state, 'Nothing to undo')
    return {
      state: {
        ...state,
        labels: { ...state.labels, [last.targetId]: last.before },
        undo: state.undo.slice(0, -1),
        focus: state.order.includes(last.targetId) ? last.targetId : state.focus,
      },
      effects: [{ type: 'save', targetId: last.targetId, label: last.before }],
    }
  },
}

export const note: Action = {
  name: 'note',
  keys: ['n'],
  label: 'Write a note on the focused unit',
  hint: 'note',
  perform(state) {
    if (state.focus === null) return notice(state, 'No unit is focused')
    return { state, effects: [{ type: 'openNote', targetId: state.focus }] }
  },
}

export const setNote: Action<{ targetId: number; note: string }> = {
  name: 'setNote',
  keys: [],
  label: 'Save a note',
  perform(state, { targetId, note: text }) {
    const trimmed = text.trim()
    const current = labelOf(state, targetId)
    if ((current.note ?? '') === trimmed) return none(state)
    return change(state, targetId, { ...current, note: trimmed === '' ? null : trimmed })
  },
}

/** Attaches the selected text (already turned into offsets) to the focused unit as evidence. */
export const attachEvidence: Action<EvidenceSpan | null> = {
  name: 'attachEvidence',
  keys: ['e'],
  label: 'Attach the selected text as evidence',
  hint: 'selection as evidence',
  bindings: (env) =>
    attachEvidence.keys.map((key) => ({
      key,
      label: attachEvidence.label,
      hint: 'selection as evidence',
      arg: () => env.selection(),
    })),
  perform(state, span) {
    if (state.focus === null) return notice(state, 'No unit is focused')
    if (!span) return notice(state, 'Select a passage in the reference or the answer first')
    const current = labelOf(state, state.focus)
    if (current.evidence.some((e) => e.pane === span.pane && e.start === span.start && e.end === span.end))
      return notice(state, 'That passage is already attached')
    const evidence = [...current.evidence, span].sort(
      (a, b) => a.pane.localeCompare(b.pane) || a.start - b.start,
    )
    return change(state, state.focus, { ...current, evidence })
  },
}

/**
 * The × beside a passage names it; the key (no passage named) takes the focused unit's last one,
 * so pressed again it empties the list from the end, and u puts a removed one back.
 */
export const removeEvidence: Action<{ targetId: number; index: number } | undefined> = {
  name: 'removeEvidence',
  keys: ['Shift+E'],
  label: 'Remove the last piece of evidence of the focused unit',
  perform(state, which) {
    if (!which && state.focus === null) return notice(state, 'No unit is focused')
    const targetId = which?.targetId ?? state.focus!
    const current = labelOf(state, targetId)
    if (!which && current.evidence.length === 0) return notice(state, 'This unit has no evidence to remove')
    const index = which?.index ?? current.evidence.length - 1
    if (!current.evidence[index]) return none(state)
    return change(state, targetId, { ...current, evidence: current.evidence.filter((_, i) => i !== index) })
  },
}

/** Blind mode is a setting of the viewer, not of a label: the view flips it. */
export const toggleBlind: Action = {
  name: 'toggleBlind',
  keys: ['b'],
  label: 'Blind mode on or off',
  perform: (state) => ({ state, effects: [{ type: 'blind' }] }),
}

export const nextVariant: Action = {
  name: 'nextVariant',
  keys: ['v'],
  label: 'Next variant of the answer',
  hint: 'variant',
  perform: (state) => ({ state, effects: [{ type: 'variant', delta: 1 }] }),
}

export const prevVariant: Action = {
  name: 'prevVariant',
  keys: ['Shift+V'],
  label: 'Previous variant of the answer',
  perform: (state) => ({ state, effects: [{ type: 'variant', delta: -1 }] }),
}

export const prevItem: Action = {
  name: 'prevItem',
  keys: ['['],
  label: 'Previous item',
  hint: 'item',
  perform: (state) => ({ state, effects: [{ type: 'item', step: 'prev' }] }),
}

export const nextItem: Action = {
  name: 'nextItem',
  keys: [']'],
  label: 'Next item',
  hint: 'item',
  perform: (state) => ({ state, effects: [{ type: 'item', step: 'next' }] }),
}

/** `?` whether or not the keyboard needs Shift for it. */
export const showKeys: Action = {
  name: 'showKeys',
  keys: ['[Shift]+?'],
  label: 'Show every key',
  hint: 'all keys',
  perform: (state) => ({ state, effects: [{ type: 'showKeys' }] }),
}

/**
 * The actions the keyboard reaches, in the order the footer and the cheat sheet list them. The
 * others (focusTarget, setNote) are run by clicks and dialogs.
 */
export const KEY_ACTIONS: readonly Action<unknown>[] = [
  labelVerdict,
  next,
  prev,
  nextUnlabelled,
  undo,
  attachEvidence,
  removeEvidence,
  note,
  nextVariant,
  prevVariant,
  prevItem,
  nextItem,
  toggleBlind,
  showKeys,
]

/** Replaces the list (another variant or item) while keeping what I labelled and my undo steps. */
export function withList(
  state: AnnotateState,
  order: number[],
  labels: Record<number, TargetLabel>,
  focus: number | null,
): AnnotateState {
  return {
    ...state,
    order,
    labels: { ...state.labels, ...labels },
    focus: focus !== null && order.includes(focus) ? focus : (order[0] ?? null),
  }
}
