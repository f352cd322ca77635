import { memo, useCallback, useEffect } from 'react'
import type { AnnotateTarget } from '../../../../shared/contract/annotate'
import type { LabelSchema } from '../../../../shared/labelSchemas'
import { type VerdictKey, verdictText } from '../../actions/keymap'
import type { TargetLabel } from '../../actions/types'
import { UnitRow } from './UnitRow'

interface Props {
  schema: LabelSchema
  keys: VerdictKey[]
  targets: AnnotateTarget[]
  labels: Record<number, TargetLabel>
  focus: number | null
  failed: Map<number, TargetLabel>
  /** Texts of the panes, to quote evidence spans. */
  texts: { reference: string; candidate: string }
  blind: boolean
  listRef: React.Ref<HTMLDivElement>
  onFocus(targetId: number): void
  onPick(targetId: number, verdict: string): void
  onRemoveEvidence(targetId: number, index: number): void
  onNote(targetId: number): void
}

/**
 * The units of the current answer with their verdict buttons; the focused one shows detail.
 * Memoised with stable props, so what re-renders on a key press is this list and the rows whose
 * label or focus changed.
 */
export const UnitList = memo(function UnitList(props: Props) {
  const { targets, focus, schema, listRef } = props
  // One ref callback for the list's life: a new one on each render would detach and reattach it.
  const setList = useCallback(
    (el: HTMLDivElement | null) => {
      if (typeof listRef === 'function') listRef(el)
      else if (listRef) (listRef as React.RefObject<HTMLDivElement | null>).current = el
    },
    [listRef],
  )

  useEffect(() => {
    if (focus === null) return
    document.getElementById(`unit-${focus}`)?.scrollIntoView({ block: 'nearest' })
  }, [focus])

  // The verdict slot of each row is as wide as the longest verdict ("Contradiction").
  const chars = Math.max(4, ...props.keys.map((k) => verdictText(k.verdict).length))
  return (
    <div
      className="unit-list"
      style={{ '--verdict-chars': chars } as React.CSSProperties}
      role="listbox"
      aria-label="Units"
      tabIndex={0}
      ref={setList}
      aria-activedescendant={focus === null ? undefined : `unit-${focus}`}
    >
      {targets.length === 0 && (
        <p className="muted small empty-units">
          This answer has no units to judge yet. Add facts, claims or sentences in the Units view, then come
          back.
        </p>
      )}
      {targets.map((t, i) => (
        <UnitRow
          key={t.targetId}
          target={t}
          index={i}
          schema={schema}
          keys={props.keys}
          label={props.labels[t.targetId]}
          focused={t.targetId === focus}
          unsaved={props.failed.has(t.targetId)}
          texts={props.texts}
          blind={props.blind}
          onFocus={props.onFocus}
          onPick={props.onPick}
          onRemoveEvidence={props.onRemoveEvidence}
          onNote={props.onNote}
        />
      ))}
    </div>
  )
})
