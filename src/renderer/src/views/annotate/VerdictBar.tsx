import type { LabelSchema } from '../../../../shared/labelSchemas'
import { toBinary } from '../../../../shared/labelSchemas'
import { type VerdictKey, verdictText } from '../../actions/keymap'

/** Colour of a verdict: by its binary mapping, a second unsupported value in a softer tone. */
export function verdictTone(schema: LabelSchema, verdict: string): string {
  const binary = toBinary(schema, verdict)
  if (binary === 'supported') return 'tone-yes'
  if (binary === null) return 'tone-none'
  if (schema.type === 'categorical') {
    const unsupported = schema.values.filter((v) => schema.binary[v] === 'unsupported')
    return unsupported.indexOf(verdict) === 0 ? 'tone-no' : 'tone-unsure'
  }
  return 'tone-no'
}

interface Props {
  schema: LabelSchema
  keys: VerdictKey[]
  current: string | null
  onPick(verdict: string): void
  compact?: boolean
}

export function VerdictBar({ schema, keys, current, onPick, compact }: Props) {
  return (
    <fieldset className={compact ? 'verdicts compact' : 'verdicts'} aria-label="Verdict">
      {keys.map((k) => (
        <button
          key={k.verdict}
          type="button"
          className={`verdict ${verdictTone(schema, k.verdict)}${current === k.verdict ? ' chosen' : ''}`}
          aria-pressed={current === k.verdict}
          // Buttons never take focus: the list keeps it, so the next key still lands on a unit.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onPick(k.verdict)}
          tabIndex={-1}
        >
          {k.key && <kbd>{k.key}</kbd>}
          {verdictText(k.verdict)}
        </button>
      ))}
    </fieldset>
  )
}
