import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import type { UnitEntry } from '../../../../shared/contract/units'
import type { Triplet } from '../../../../shared/domain'

/**
 * A triplet unit is edited as its subject, predicate and object; its text is those parts read
 * together, so there is no text box for it and the structure cannot drift from the text.
 */

const PARTS = [
  { name: 'subject', label: 'Subject' },
  { name: 'predicate', label: 'Predicate' },
  { name: 'object', label: 'Object' },
] as const

export type Parts = [string, string, string]

export const complete = (p: readonly string[]): boolean => p.length === 3 && p.every((x) => x.trim() !== '')

/** The parts a form starts from; a claim that has none yet starts with its text as the subject. */
export function startParts(unit: UnitEntry): Parts {
  return unit.triplet ? [...unit.triplet] : [unit.text, '', '']
}

export function TripletParts({ triplet }: { triplet: Triplet }) {
  return (
    <span className="units-text units-triplet">
      {PARTS.map((p, i) => (
        <span key={p.name} className={`units-part units-part-${p.name}`} title={p.label}>
          {triplet[i]}
        </span>
      ))}
    </span>
  )
}

function PartInputs(props: {
  value: Parts
  onChange(v: Parts): void
  onKeyDown(e: KeyboardEvent): void
  /** Names the row in a split, so each box has its own accessible name. */
  suffix?: string
  focusFirst?: boolean
  /** Outlines a blank part; not in the add form, which starts blank. */
  markBlank?: boolean
}) {
  const first = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (props.focusFirst) first.current?.focus()
  }, [props.focusFirst])
  return (
    <span className="units-parts">
      {PARTS.map((p, i) => (
        <input
          key={p.name}
          ref={i === 0 ? first : undefined}
          type="text"
          aria-label={`${p.label}${props.suffix ?? ''}`}
          placeholder={p.label}
          className={`units-part-input units-part-${p.name}`}
          value={props.value[i]}
          aria-invalid={props.markBlank && props.value[i]!.trim() === '' ? true : undefined}
          onChange={(e) => {
            const next: Parts = [...props.value]
            next[i] = e.target.value
            props.onChange(next)
          }}
          onKeyDown={props.onKeyDown}
        />
      ))}
    </span>
  )
}

function Bar(props: { hint: string; action: string; ready: boolean; onCancel(): void; onSubmit(): void }) {
  return (
    <div className="units-editor-bar">
      <span className="units-hint">{props.hint}</span>
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
      <button type="button" className="primary" disabled={!props.ready} onClick={props.onSubmit}>
        {props.action}
      </button>
    </div>
  )
}

const MISSING = 'Every part needs some text.'

/** Edit of one triplet: Enter saves once every part has text, Escape cancels. */
export function TripletEditor(props: { unit: UnitEntry; onDone(parts: Parts | null): void }) {
  const [parts, setParts] = useState(() => startParts(props.unit))
  const ready = complete(parts)
  const hint = !ready
    ? MISSING
    : props.unit.locked
      ? `This triplet has labels or verdicts: saving makes version ${props.unit.version + 1}, and they stay with this version.`
      : props.unit.triplet
        ? 'Enter saves, Esc cancels. The text is the three parts read together.'
        : 'This claim had no subject, predicate and object yet; saving gives it these.'
  return (
    <div className="units-editor">
      <PartInputs
        value={parts}
        onChange={setParts}
        focusFirst
        markBlank
        onKeyDown={(e) => {
          e.stopPropagation()
          if (e.key === 'Escape') props.onDone(null)
          else if (e.key === 'Enter' && ready) {
            e.preventDefault()
            props.onDone(parts)
          }
        }}
      />
      <Bar
        hint={hint}
        action="Save"
        ready={ready}
        onCancel={() => props.onDone(null)}
        onSubmit={() => props.onDone(parts)}
      />
    </div>
  )
}

/** Split of a compound claim into two or more triplets; Ctrl+Enter splits, Escape cancels. */
export function TripletSplitEditor(props: { unit: UnitEntry; onDone(triplets: Parts[] | null): void }) {
  const [rows, setRows] = useState<Parts[]>(() => {
    const first = startParts(props.unit)
    return [first, [first[0], '', '']]
  })
  const ready = rows.length >= 2 && rows.every(complete)
  const submit = () => ready && props.onDone(rows)
  const onKeyDown = (e: KeyboardEvent) => {
    e.stopPropagation()
    if (e.key === 'Escape') props.onDone(null)
    else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault()
      submit()
    }
  }
  return (
    <div className="units-editor">
      <ol className="units-split-triplets">
        {rows.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
          <li key={i}>
            <PartInputs
              value={r}
              suffix={` of triplet ${i + 1}`}
              focusFirst={i === 0 || (i === rows.length - 1 && i > 1)}
              markBlank
              onChange={(v) => setRows(rows.map((x, j) => (j === i ? v : x)))}
              onKeyDown={onKeyDown}
            />
            {rows.length > 2 && (
              <button
                type="button"
                className="tiny"
                aria-label={`Remove triplet ${i + 1}`}
                onClick={() => setRows(rows.filter((_, j) => j !== i))}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ol>
      <button type="button" className="tiny units-add-piece" onClick={() => setRows([...rows, ['', '', '']])}>
        Add a triplet
      </button>
      <Bar
        hint={
          ready
            ? 'The first triplet takes this one’s place. Ctrl+Enter splits, Esc cancels.'
            : `${MISSING} A split makes at least two triplets.`
        }
        action={`Split into ${rows.length} triplets`}
        ready={ready}
        onCancel={() => props.onDone(null)}
        onSubmit={submit}
      />
    </div>
  )
}

/** The add form of a triplet list: three boxes instead of one. */
export function TripletAddBox(props: { onAdd(parts: Parts): void }) {
  const empty: Parts = ['', '', '']
  const [parts, setParts] = useState<Parts>(empty)
  const ready = complete(parts)
  const submit = () => {
    if (!ready) return
    props.onAdd(parts)
    setParts(empty)
  }
  return (
    <form
      className="units-add"
      aria-label="Add a triplet"
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      <PartInputs
        value={parts}
        suffix=" of a new triplet"
        onChange={setParts}
        onKeyDown={(e) => {
          e.stopPropagation()
          if (e.key === 'Enter') {
            e.preventDefault()
            submit()
          }
        }}
      />
      <button type="submit" disabled={!ready}>
        Add
      </button>
    </form>
  )
}
