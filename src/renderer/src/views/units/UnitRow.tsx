import { useEffect, useRef, useState } from 'react'
import type { UnitEntry } from '../../../../shared/contract/units'
import type { Triplet } from '../../../../shared/domain'
import { countOf } from '../../../../shared/plural'
import { splitPieces } from './grouping'
import { TripletEditor, TripletParts, TripletSplitEditor } from './TripletEditors'
import { VersionHistory } from './VersionHistory'

export type RowMode = 'edit' | 'split' | 'history'

/** What an edit sends: a new text, or a triplet's new parts (its text follows from them). */
export type UnitEdit = { text: string } | { triplet: Triplet }
/** The pieces of a split: texts, or triplets for a triplet unit. */
export type SplitPieces = { texts: string[] } | { triplets: Triplet[] }

export interface UnitRowProps {
  unit: UnitEntry
  number: number
  focused: boolean
  selected: boolean
  mode: RowMode | null
  canMoveUp: boolean
  canMoveDown: boolean
  onFocus(): void
  onMode(mode: RowMode | null): void
  /** False for triplets, which cannot be merged. */
  mergeable: boolean
  onSave(edit: UnitEdit): void
  onSplit(pieces: SplitPieces): void
  onDelete(): void
  onMove(by: -1 | 1): void
  onToggleSelect(): void
}

function Badges({ unit }: { unit: UnitEntry }) {
  return (
    <span className="units-badges">
      {unit.versions > 1 && (
        <span className="units-badge" title="Versions of this unit">
          v{unit.version}
        </span>
      )}
      {unit.labels > 0 && (
        <span className="units-badge units-badge-labels">{countOf(unit.labels, 'label')}</span>
      )}
      {unit.verdicts > 0 && <span className="units-badge">{unit.verdicts} judged</span>}
      <span className="units-badge units-badge-origin">{unit.origin}</span>
    </span>
  )
}

/** Text box for an edit or a split: Enter (or Ctrl+Enter for a split) saves, Escape cancels. */
function Editor(props: { unit: UnitEntry; split: boolean; onDone(text: string | null): void }) {
  const [text, setText] = useState(props.unit.text)
  const ref = useRef<HTMLTextAreaElement>(null)
  useEffect(() => {
    ref.current?.focus()
    ref.current?.select()
  }, [])
  const pieces = props.split ? splitPieces(text) : []
  const submit = () => props.onDone(text)
  return (
    <div className="units-editor">
      <textarea
        ref={ref}
        aria-label={props.split ? 'Pieces, one per line' : 'Unit text'}
        value={text}
        rows={props.split ? 4 : 2}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          e.stopPropagation()
          if (e.key === 'Escape') props.onDone(null)
          else if (e.key === 'Enter' && (props.split ? e.ctrlKey || e.metaKey : !e.shiftKey)) {
            e.preventDefault()
            submit()
          }
        }}
      />
      <div className="units-editor-bar">
        {props.split ? (
          <span className="units-hint">
            One piece per line ({pieces.length} now). Ctrl+Enter splits, Esc cancels.
          </span>
        ) : (
          <span className="units-hint">
            {props.unit.locked
              ? `This text has labels or verdicts: saving makes version ${props.unit.version + 1}, and they stay with this version.`
              : 'Enter saves, Shift+Enter for a new line, Esc cancels.'}
          </span>
        )}
        <button type="button" onClick={() => props.onDone(null)}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          disabled={props.split ? pieces.length < 2 : !text.trim()}
          onClick={submit}
        >
          {props.split ? `Split into ${pieces.length}` : 'Save'}
        </button>
      </div>
    </div>
  )
}

function RowTools(p: UnitRowProps) {
  return (
    <>
      <Badges unit={p.unit} />
      <span className="units-actions">
        <button type="button" className="tiny" title="Edit (e)" onClick={() => p.onMode('edit')}>
          Edit
        </button>
        <button type="button" className="tiny" title="Split (s)" onClick={() => p.onMode('split')}>
          Split
        </button>
        <button
          type="button"
          className="tiny"
          title="Move up (Alt+↑)"
          disabled={!p.canMoveUp}
          onClick={() => p.onMove(-1)}
        >
          ↑
        </button>
        <button
          type="button"
          className="tiny"
          title="Move down (Alt+↓)"
          disabled={!p.canMoveDown}
          onClick={() => p.onMove(1)}
        >
          ↓
        </button>
        <button
          type="button"
          className="tiny"
          title="Versions and their labels (h)"
          aria-pressed={p.mode === 'history'}
          onClick={() => p.onMode(p.mode === 'history' ? null : 'history')}
        >
          History
        </button>
        <button type="button" className="tiny danger" title="Delete (x)" onClick={p.onDelete}>
          Delete
        </button>
      </span>
    </>
  )
}

/** The unit's text, or the editor its mode asks for; a triplet shows and edits its three parts. */
function RowBody(p: UnitRowProps) {
  const triplet = p.unit.kind === 'triplet'
  const cancel = () => p.onMode(null)
  if (p.mode === 'edit' && triplet)
    return (
      <TripletEditor unit={p.unit} onDone={(parts) => (parts ? p.onSave({ triplet: parts }) : cancel())} />
    )
  if (p.mode === 'split' && triplet)
    return (
      <TripletSplitEditor
        unit={p.unit}
        onDone={(rows) => (rows ? p.onSplit({ triplets: rows }) : cancel())}
      />
    )
  if (p.mode === 'edit' || p.mode === 'split') {
    const split = p.mode === 'split'
    return (
      <Editor
        unit={p.unit}
        split={split}
        onDone={(text) => {
          if (text === null) cancel()
          else if (split) p.onSplit({ texts: splitPieces(text) })
          else p.onSave({ text })
        }}
      />
    )
  }
  return p.unit.triplet ? (
    <TripletParts triplet={p.unit.triplet} />
  ) : (
    <span className="units-text">{p.unit.text}</span>
  )
}

export function UnitRow(p: UnitRowProps) {
  const ref = useRef<HTMLLIElement>(null)
  useEffect(() => {
    if (p.focused && !p.mode) ref.current?.scrollIntoView({ block: 'nearest' })
  }, [p.focused, p.mode])
  return (
    <li
      ref={ref}
      className={`units-row${p.focused ? ' focused' : ''}${p.selected ? ' selected' : ''}`}
      data-unit-id={p.unit.id}
      data-testid="unit-row"
      onClick={p.onFocus}
      onKeyDown={undefined}
    >
      <div className="units-row-main">
        {p.mergeable ? (
          <input
            type="checkbox"
            aria-label="Select for merge"
            checked={p.selected}
            onChange={p.onToggleSelect}
            onClick={(e) => e.stopPropagation()}
          />
        ) : (
          <span className="units-nocheck" />
        )}
        <span className="units-num">{p.number}</span>
        <RowBody {...p} />
        {/* An open editor gets the row's whole width; its own buttons save or cancel. */}
        {p.mode !== 'edit' && p.mode !== 'split' && <RowTools {...p} />}
      </div>
      {p.mode === 'history' && <VersionHistory lineageId={p.unit.lineageId} />}
    </li>
  )
}
