import type { LabelSchema } from '../../../shared/labelSchemas'

export interface VerdictKey {
  key: string
  verdict: string
}

/**
 * Digits for verdicts: 1, 2, 3 … in the schema's order for categorical schemas; for a numeric
 * scale that fits in 0–9 the digit is the score itself (a person types "4" to give 4).
 */
export function verdictKeys(schema: LabelSchema): VerdictKey[] {
  if (schema.type === 'categorical')
    return schema.values.slice(0, 9).map((verdict, i) => ({ key: String(i + 1), verdict }))
  const out: VerdictKey[] = []
  const fitsDigits = schema.min >= 0 && schema.max <= 9 && Number.isInteger(schema.min) && schema.step === 1
  for (let v = schema.min; v <= schema.max + 1e-9; v += schema.step) {
    const value = Number(v.toFixed(6))
    const i = out.length
    const key = fitsDigits ? String(value) : i < 9 ? String(i + 1) : ''
    out.push({ key, verdict: String(value) })
  }
  return out
}

/** How a verdict reads on a button: "not_clear" → "Not clear". */
export function verdictText(verdict: string): string {
  const words = verdict.replace(/_/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}
