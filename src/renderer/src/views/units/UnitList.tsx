import { useState } from 'react'
import type { UnitEntry } from '../../../../shared/contract/units'
import type { Triplet } from '../../../../shared/domain'
import type { UnitGroup } from './grouping'
import { TripletAddBox } from './TripletEditors'
import { type RowMode, type SplitPieces, type UnitEdit, UnitRow } from './UnitRow'

/** What the page does for a list; the list only reports what the person asked for. */
export interface UnitActions {
  focus(id: number): void
  setMode(id: number, mode: RowMode | null): void
  save(unit: UnitEntry, edit: UnitEdit): void
  split(unit: UnitEntry, pieces: SplitPieces): void
  remove(unit: UnitEntry): void
  move(group: UnitGroup, id: number, by: -1 | 1): void
  toggleSelect(id: number): void
  merge(ids: number[], text: string): void
  add(group: UnitGroup, unit: { text: string } | { triplet: Triplet }): void
}

export interface UnitListProps {
  group: UnitGroup
  title: string
  focusedId: number | null
  selected: ReadonlySet<number>
  mode: { unitId: number; mode: RowMode } | null
  actions: UnitActions
}

function MergeBar(props: { units: UnitEntry[]; onMerge(text: string): void }) {
  const joined = props.units.map((u) => u.text).join(' ')
  const [text, setText] = useState<string | null>(null)
  if (text === null)
    return (
      <div className="units-mergebar">
        <button type="button" onClick={() => setText(joined)}>
          Merge {props.units.length} selected…
        </button>
      </div>
    )
  return (
    <div className="units-mergebar units-editor">
      <textarea
        aria-label="Merged text"
        value={text}
        rows={3}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          e.stopPropagation()
          if (e.key === 'Escape') setText(null)
        }}
      />
      <div className="units-editor-bar">
        <span className="units-hint">
          The merged unit takes the place of the first; the others are deleted.
        </span>
        <button type="button" onClick={() => setText(null)}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={!text.trim()} onClick={() => props.onMerge(text)}>
          Merge
        </button>
      </div>
    </div>
  )
}

function AddBox(props: { label: string; onAdd(text: string): void }) {
  const [text, setText] = useState('')
  const submit = () => {
    if (!text.trim()) return
    props.onAdd(text)
    setText('')
  }
  return (
    <form
      className="units-add"
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      <input
        type="text"
        aria-label={props.label}
        placeholder={`${props.label}…`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => e.stopPropagation()}
      />
      <button type="submit" disabled={!text.trim()}>
        Add
      </button>
    </form>
  )
}

export function UnitList({ group, title, focusedId, selected, mode, actions }: UnitListProps) {
  const ids = group.units.map((u) => u.id)
  const chosen = group.units.filter((u) => selected.has(u.id))
  const noun = group.kind === 'whole' ? 'unit' : group.kind
  const triplets = group.kind === 'triplet'
  return (
    <section className="units-list" aria-label={title}>
      <h3>
        {title} <span className="units-count">{group.units.length}</span>
      </h3>
      {triplets && (
        <p className="units-hint units-list-note">
          Each triplet is edited as subject, predicate and object, and its text is those parts read together.
          A triplet can be split into several, but triplets are not merged: two claims do not make one.
        </p>
      )}
      {group.units.length === 0 ? (
        <p className="units-hint">No {noun}s yet.</p>
      ) : (
        <ol>
          {group.units.map((u, i) => (
            <UnitRow
              key={u.id}
              unit={u}
              number={i + 1}
              focused={focusedId === u.id}
              selected={selected.has(u.id)}
              mode={mode?.unitId === u.id ? mode.mode : null}
              canMoveUp={i > 0}
              canMoveDown={i < ids.length - 1}
              mergeable={!triplets}
              onFocus={() => actions.focus(u.id)}
              onMode={(m) => actions.setMode(u.id, m)}
              onSave={(edit) => actions.save(u, edit)}
              onSplit={(pieces) => actions.split(u, pieces)}
              onDelete={() => actions.remove(u)}
              onMove={(by) => actions.move(group, u.id, by)}
              onToggleSelect={() => actions.toggleSelect(u.id)}
            />
          ))}
        </ol>
      )}
      {triplets && chosen.length > 0 && (
        <p className="units-hint units-error" role="note">
          Triplets cannot be merged. Edit one of them to say the whole claim and delete the other.
        </p>
      )}
      {!triplets && chosen.length >= 2 && (
        <MergeBar
          key={chosen.map((u) => u.id).join(',')}
          units={chosen}
          onMerge={(text) =>
            actions.merge(
              chosen.map((u) => u.id),
              text,
            )
          }
        />
      )}
      {triplets ? (
        <TripletAddBox onAdd={(triplet) => actions.add(group, { triplet })} />
      ) : (
        <AddBox label={`Add a ${noun}`} onAdd={(text) => actions.add(group, { text })} />
      )}
    </section>
  )
}
