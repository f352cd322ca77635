import type { EvidenceSpan } from '../../../shared/domain'
import type { VerdictKey } from './keymap'

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
  /** Targets an annotation plan has settled for me (k labels from others): "next unlabelled" passes them. */
  settled?: readonly number[]
}

/** Side effects an action asks for; the view carries them out (saving, fetching, dialogs). */
export type Effect =
  | { type: 'save'; targetId: number; label: TargetLabel }
  | { type: 'nextUnlabelled'; afterTargetId: number | null }
  | { type: 'openNote'; targetId: number }
  | { type: 'notice'; message: string }
  | { type: 'variant'; delta: 1 | -1 }
  | { type: 'item'; step: 'next' | 'prev' }
  | { type: 'showKeys' }
  | { type: 'blind' }

export interface ActionResult {
  state: AnnotateState
  effects: Effect[]
}

/** What a key press may read besides the state; the view supplies it. */
export interface KeyEnv {
  /** The digits of the open dataset's label schema. */
  verdictKeys: readonly VerdictKey[]
  /** The passage selected in the reference or answer pane, read when the key is pressed. */
  selection(): EvidenceSpan | null
}

/** One key of one action in the open dataset, with the argument a press gives `perform`. */
export interface KeyUse<Arg> {
  key: string
  /** What the key does, for the cheat sheet. */
  label: string
  /** A word or two for the footer; a key without one stays out of the footer. */
  hint?: string
  arg(): Arg
}

/**
 * One command of the workbench (Excalidraw style): a name, its keys (tinykeys strings), its label,
 * and a pure `perform` so every command is tested without a DOM. The key hook, the footer and
 * the `?` cheat sheet are all built from these, so a key is written in one place only.
 */
export interface Action<Arg = void> {
  name: string
  keys: readonly string[]
  label: string
  /** The footer's short text; actions without one are listed only in the cheat sheet. */
  hint?: string
  /** Holding the key down repeats the action (moving does; labelling a run of units must not). */
  repeat?: boolean
  /**
   * The keys as the open dataset has them, when they need more than `keys` alone: a verdict's
   * digit depends on the schema, evidence comes from the selection. Without it every key in
   * `keys` calls `perform` with no argument.
   */
  bindings?(env: KeyEnv): KeyUse<Arg>[]
  perform(state: AnnotateState, arg: Arg): ActionResult
}
