import { z } from 'zod'

/** The binary outcome every error-rate metric is computed on. */
export type Binary = 'supported' | 'unsupported'

export const CategoricalSchema = z.object({
  type: z.literal('categorical'),
  name: z.string(),
  /** Allowed verdicts in the order buttons and hotkeys show them. */
  values: z.array(z.string().min(1)).min(2),
  /** How each verdict maps to the binary used by error rate and F1. */
  binary: z.record(z.string(), z.enum(['supported', 'unsupported'])),
  /** Optional numeric score per verdict (seed 001: pass 2, partially_pass 1, fail 0). */
  scores: z.record(z.string(), z.number()).optional(),
})

export const NumericSchema = z.object({
  type: z.literal('numeric'),
  name: z.string(),
  min: z.number(),
  max: z.number(),
  step: z.number().positive().default(1),
  /** Scores at or above the threshold count as supported. */
  threshold: z.number(),
})

export const LabelSchema = z.discriminatedUnion('type', [CategoricalSchema, NumericSchema])
export type LabelSchema = z.infer<typeof LabelSchema>
export type CategoricalLabelSchema = z.infer<typeof CategoricalSchema>
export type NumericLabelSchema = z.infer<typeof NumericSchema>

export const UNIT_KINDS = ['fact', 'triplet', 'sentence', 'whole'] as const
export const UnitKind = z.enum(UNIT_KINDS)
export type UnitKind = z.infer<typeof UnitKind>

export const FAAF_SCHEMA: CategoricalLabelSchema = {
  type: 'categorical',
  name: 'faaf',
  values: ['true', 'false', 'not_clear'],
  // The FaaF paper folds "not clear" into False.
  binary: { true: 'supported', false: 'unsupported', not_clear: 'unsupported' },
}

export const REFCHECKER_SCHEMA: CategoricalLabelSchema = {
  type: 'categorical',
  name: 'refchecker',
  values: ['entailment', 'neutral', 'contradiction'],
  binary: { entailment: 'supported', neutral: 'unsupported', contradiction: 'unsupported' },
}

export const DCR_SCHEMA: CategoricalLabelSchema = {
  type: 'categorical',
  name: 'dcr',
  values: ['consistent', 'inconsistent'],
  binary: { consistent: 'supported', inconsistent: 'unsupported' },
}

/** Seed 001's holistic grades; where partially_pass lands is a dataset setting. */
export function holisticSchema(partialCounts: Binary = 'unsupported'): CategoricalLabelSchema {
  return {
    type: 'categorical',
    name: 'holistic',
    values: ['pass', 'partially_pass', 'fail'],
    binary: { pass: 'supported', partially_pass: partialCounts, fail: 'unsupported' },
    scores: { pass: 2, partially_pass: 1, fail: 0 },
  }
}

export const BINARY_SCHEMA: CategoricalLabelSchema = {
  type: 'categorical',
  name: 'binary',
  values: ['yes', 'no'],
  binary: { yes: 'supported', no: 'unsupported' },
}

export function numericSchema(name: string, min: number, max: number, threshold: number): NumericLabelSchema {
  return { type: 'numeric', name, min, max, step: 1, threshold }
}

export const PRESET_SCHEMAS = {
  faaf: FAAF_SCHEMA,
  refchecker: REFCHECKER_SCHEMA,
  dcr: DCR_SCHEMA,
  holistic: holisticSchema(),
  binary: BINARY_SCHEMA,
} as const

/**
 * Maps a stored verdict to the binary outcome. Returns null for a verdict the schema does
 * not know, so callers count it rather than guess.
 */
export function toBinary(schema: LabelSchema, verdict: string | null, score?: number | null): Binary | null {
  if (schema.type === 'numeric') {
    const value = score ?? (verdict === null ? Number.NaN : Number(verdict))
    if (!Number.isFinite(value)) return null
    return value >= schema.threshold ? 'supported' : 'unsupported'
  }
  if (verdict === null) return null
  return schema.binary[verdict] ?? null
}

/**
 * A verdict as a person types it ("Neutral", "not clear", "Partially-pass") read as the schema's
 * own word when exactly one word matches it; anything else comes back as typed, for
 * checkVerdict to refuse by name.
 */
export function schemaWord(schema: LabelSchema, typed: string): string {
  if (schema.type === 'numeric' || schema.values.includes(typed)) return typed
  const loose = (w: string) =>
    w
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_')
  const matches = schema.values.filter((v) => loose(v) === loose(typed))
  return matches.length === 1 ? matches[0]! : typed
}

/** Validates a verdict against a schema; returns an error message or null. */
export function checkVerdict(schema: LabelSchema, verdict: string): string | null {
  if (schema.type === 'numeric') {
    const n = Number(verdict)
    if (verdict.trim() === '' || !Number.isFinite(n)) return `"${verdict}" is not a number`
    if (n < schema.min || n > schema.max) return `${n} is outside ${schema.min}–${schema.max}`
    return null
  }
  return schema.values.includes(verdict)
    ? null
    : `"${verdict}" is not one of ${schema.values.map((v) => `"${v}"`).join(', ')}`
}
