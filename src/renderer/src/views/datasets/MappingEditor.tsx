import type { MappingInput } from '../../../../shared/importMapping'
import { PRESET_SCHEMAS } from '../../../../shared/labelSchemas'

interface Props {
  columns: string[]
  mapping: MappingInput
  onChange(m: MappingInput): void
}

function ColumnSelect(props: {
  id: string
  value: string | undefined
  columns: string[]
  optional?: boolean
  onChange(v: string | undefined): void
}) {
  return (
    <select
      id={props.id}
      value={props.value ?? ''}
      onChange={(e) => props.onChange(e.target.value === '' ? undefined : e.target.value)}
    >
      <option value="">{props.optional ? '— none —' : '— choose a column —'}</option>
      {props.columns.map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </select>
  )
}

const SCHEMA_NAMES = Object.keys(PRESET_SCHEMAS) as (keyof typeof PRESET_SCHEMAS)[]

/** Which column is what: the wizard's form over the shared Mapping shape. */
export function MappingEditor({ columns, mapping, onChange }: Props) {
  const set = (patch: Partial<MappingInput>) => onChange({ ...mapping, ...patch })
  const candidates = mapping.candidates ?? []
  const labels = mapping.labels ?? []
  const schemaName = mapping.labelSchema?.name ?? ''
  return (
    <div className="mapping">
      <div className="field">
        <label htmlFor="map-id">Item id</label>
        <ColumnSelect
          id="map-id"
          optional
          value={mapping.id}
          columns={columns}
          onChange={(id) => set({ id })}
        />
      </div>
      <div className="field">
        <label htmlFor="map-question">Question</label>
        <ColumnSelect
          id="map-question"
          optional
          value={mapping.question}
          columns={columns}
          onChange={(question) => set({ question })}
        />
      </div>
      <div className="field">
        <label htmlFor="map-reference">Reference</label>
        <ColumnSelect
          id="map-reference"
          value={mapping.reference}
          columns={columns}
          onChange={(reference) => set({ reference: reference ?? '' })}
        />
      </div>
      <fieldset className="field wide">
        <legend>Answers to judge (one variant per column)</legend>
        {candidates.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; the position is their identity
          <div className="row" key={i}>
            <input
              aria-label={`Variant name ${i + 1}`}
              value={c.variant}
              onChange={(e) =>
                set({
                  candidates: candidates.map((x, j) => (j === i ? { ...x, variant: e.target.value } : x)),
                })
              }
            />
            <ColumnSelect
              id={`map-cand-${i}`}
              value={c.column}
              columns={columns}
              onChange={(column) =>
                set({ candidates: candidates.map((x, j) => (j === i ? { ...x, column: column ?? '' } : x)) })
              }
            />
            <button
              type="button"
              className="ghost"
              aria-label={`Remove variant ${c.variant}`}
              onClick={() => set({ candidates: candidates.filter((_, j) => j !== i) })}
            >
              ×
            </button>
          </div>
        ))}
        <button
          type="button"
          className="ghost"
          onClick={() =>
            set({ candidates: [...candidates, { variant: `answer${candidates.length + 1}`, column: '' }] })
          }
        >
          + Add an answer column
        </button>
      </fieldset>
      <fieldset className="field wide">
        <legend>Labels by people (one column per person, on each answer as a whole)</legend>
        {labels.map((l, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; the position is their identity
          <div className="row" key={i}>
            <input
              aria-label={`Person labelling ${i + 1}`}
              value={l.annotator}
              onChange={(e) =>
                set({ labels: labels.map((x, j) => (j === i ? { ...x, annotator: e.target.value } : x)) })
              }
            />
            <ColumnSelect
              id={`map-label-${i}`}
              value={l.column}
              columns={columns}
              onChange={(column) =>
                set({ labels: labels.map((x, j) => (j === i ? { ...x, column: column ?? '' } : x)) })
              }
            />
            <button
              type="button"
              className="ghost"
              aria-label={`Remove the labels of ${l.annotator || `person ${i + 1}`}`}
              onClick={() => set({ labels: labels.filter((_, j) => j !== i) })}
            >
              ×
            </button>
          </div>
        ))}
        <button
          type="button"
          className="ghost"
          // A label is given on an answer as a whole, so the answers become whole units too.
          onClick={() => set({ labels: [...labels, { annotator: '', column: '' }], wholeUnits: true })}
        >
          + Add a label column
        </button>
      </fieldset>
      <div className="field">
        <label htmlFor="map-facts">Facts</label>
        <ColumnSelect
          id="map-facts"
          optional
          value={mapping.facts?.column}
          columns={columns}
          onChange={(column) =>
            set({ facts: column ? { column, split: mapping.facts?.split ?? 'dash-list' } : undefined })
          }
        />
        {mapping.facts && (
          <select
            aria-label="How facts are separated"
            value={mapping.facts.split ?? 'dash-list'}
            onChange={(e) =>
              set({
                facts: {
                  column: mapping.facts!.column,
                  split: e.target.value as 'dash-list' | 'lines' | 'list',
                },
              })
            }
          >
            <option value="dash-list">lines starting with “- ”</option>
            <option value="lines">one per line</option>
            <option value="list">a JSON or Python list</option>
          </select>
        )}
      </div>
      <div className="field">
        <label htmlFor="map-schema">Verdicts</label>
        <select
          id="map-schema"
          value={schemaName}
          onChange={(e) => {
            const name = e.target.value as keyof typeof PRESET_SCHEMAS | ''
            set({ labelSchema: name === '' ? undefined : PRESET_SCHEMAS[name] })
          }}
        >
          <option value="">default: true / false / not clear</option>
          {SCHEMA_NAMES.map((n) => {
            const s = PRESET_SCHEMAS[n]
            return (
              <option key={n} value={n}>
                {n}: {s.values.join(' / ')}
              </option>
            )
          })}
        </select>
      </div>
      <label className="check">
        <input
          type="checkbox"
          checked={mapping.wholeUnits ?? false}
          onChange={(e) => set({ wholeUnits: e.target.checked })}
        />
        Judge each answer as a whole (pair and score datasets)
      </label>
    </div>
  )
}
