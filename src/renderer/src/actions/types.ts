import type { EvidenceSpan } from '../../../shared/domain'

/** My label on one target as the annotate view holds it. */
export interface TargetLabel {
  verdict: string | null
  evidence: EvidenceSpan[]
  note: string | null
}

export const EMPTY_LABEL: TargetLabel = { verdict: null, evidence: [], note: null }

export interface UndoEntry {
  targetId: number
  before: TargetLabel
}

/** What the keyboard and the buttons act on: the visible units of one candidate. */
export interface AnnotateState {
  /** Target ids in the order the list shows them. */
  order: number[]
  focus: number | null
  /** My labels by target id; a missing entry means never labelled. */
  labels: Record<number, TargetLabel>
  undo: UndoEntry[]
}

/** Side effects an action asks for; the view carries them out (saving, fetching, dialogs). */
export type Effect =
  | { type: 'save'; targetId: number; label: TargetLabel }
  | { type: 'nextUnlabelled'; afterTargetId: number | null }
  | { type: 'openNote'; targetId: number }
  | { type: 'notice'; message: string }

export interface ActionResult {
  state: AnnotateState
  effects: Effect[]
}

/**
 * One command of the workbench (Excalidraw style): a name, its default keys, and a pure
 * `perform` so every command is tested without a DOM.
 */
export interface Action<Arg = void> {
  name: string
  keys: readonly string[]
  label: string
  perform(state: AnnotateState, arg: Arg): ActionResult
}
