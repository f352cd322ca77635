import { useEffect, useRef } from 'react'
import type { AnnotateTarget } from '../../../../shared/contract/annotate'
import type { LabelSchema } from '../../../../shared/labelSchemas'
import type { VerdictKey } from '../../actions/keymap'
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

/** The units of the current answer with their verdict buttons; the focused one shows detail. */
export function UnitList(props: Props) {
  const { targets, focus, schema } = props
  const scroller = useRef<HTMLDivElement | null>(null)

  useEffect(() => {
    if (focus === null) return
    document.getElementById(`unit-${focus}`)?.scrollIntoView({ block: 'nearest' })
  }, [focus])

  return (
    <div
      className="unit-list"
      role="listbox"
      aria-label="Units"
      tabIndex={0}
      ref={(el) => {
        scroller.current = el
        if (typeof props.listRef === 'function') props.listRef(el)
        else if (props.listRef) (props.listRef as React.RefObject<HTMLDivElement | null>).current = el
      }}
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
}
