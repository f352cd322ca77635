import { z } from 'zod'
import { countOf } from '../../shared/plural'
import type { LlmTool, ModelCapabilities } from '../providers/types'
import { toolParameters } from './common'

/**
 * The FaaF function object: one enum argument per statement (`fact_0 … fact_n`), its description
 * being the statement itself, optionally preceded by a nullable citation argument. Property order
 * matters to the model (it writes arguments in order), so each citation comes before its verdict.
 */
export interface VerdictFieldsSpec {
  /** Argument name stem: `fact` for FaaF, `claim` for the batched RefChecker. */
  prefix: string
  /** What the model is asked about, one per argument. */
  texts: readonly string[]
  /** Allowed verdicts (label-schema values). */
  values: readonly [string, ...string[]]
  citation: boolean
  /** Description of a citation argument; `{field}` is replaced by the verdict argument's name. */
  citationDescription?: string
}

export interface VerdictField {
  index: number
  verdict: string
  citation: string | null
}

export interface VerdictSchema {
  schema: z.ZodObject
  fields: VerdictField[]
  values: readonly string[]
}

const DEFAULT_CITATION =
  'An exact excerpt copied from the passage that supports {field}, or null when the passage has no such excerpt.'

export function buildVerdictSchema(spec: VerdictFieldsSpec): VerdictSchema {
  const shape: Record<string, z.ZodType> = {}
  const fields: VerdictField[] = []
  spec.texts.forEach((text, index) => {
    const verdict = `${spec.prefix}_${index}`
    const citation = spec.citation ? `citation_${index}` : null
    if (citation) {
      const description = (spec.citationDescription ?? DEFAULT_CITATION).replaceAll('{field}', verdict)
      shape[citation] = z.string().nullable().describe(description)
    }
    shape[verdict] = z.enum(spec.values).describe(text)
    fields.push({ index, verdict, citation })
  })
  return { schema: z.strictObject(shape), fields, values: spec.values }
}

export function verdictTool(built: VerdictSchema, name: string, description: string): LlmTool {
  return { name, description, parameters: toolParameters(built.schema) }
}

/**
 * How many statements fit in one call without breaking the provider's schema limits (OpenAI caps
 * the properties and the enum values of a strict schema).
 */
export function maxStatementsPerCall(caps: ModelCapabilities, valueCount: number, citation: boolean): number {
  const byProps = Math.floor(caps.maxSchemaProperties / (citation ? 2 : 1))
  const byEnums = Math.floor(caps.maxEnumValues / Math.max(1, valueCount))
  return Math.max(1, Math.min(byProps, byEnums))
}

export type FieldResult =
  | { ok: true; index: number; verdict: string; citation: string | null; citationProblem?: string }
  | { ok: false; index: number; problem: string }

export interface ParsedVerdicts {
  fields: FieldResult[]
  /** Argument names the schema does not have; ignored, but kept for the record. */
  extra: string[]
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing'
  const s = JSON.stringify(value)
  return s.length > 80 ? `${s.slice(0, 77)}...` : s
}

/**
 * Validates each argument on its own with the same zod schema, so every argument at fault can be
 * named; whether one bad field costs one N/A or the whole call is the caller's rule (`callFailure`).
 */
export function parseVerdictArguments(
  built: VerdictSchema,
  args: Record<string, unknown>,
  noun: string,
): ParsedVerdicts {
  const shape = built.schema.shape as Record<string, z.ZodType>
  const allowed = built.values.map((v) => `"${v}"`).join(', ')
  const fields: FieldResult[] = built.fields.map((f) => {
    if (!Object.hasOwn(args, f.verdict))
      return { ok: false, index: f.index, problem: `no verdict for ${noun} ${f.index}` }
    const value = args[f.verdict]
    const checked = shape[f.verdict]!.safeParse(value)
    if (!checked.success) {
      return {
        ok: false,
        index: f.index,
        problem: `${noun} ${f.index}: ${shown(value)} is not one of ${allowed}`,
      }
    }
    let citation: string | null = null
    let citationProblem: string | undefined
    if (f.citation) {
      const raw = args[f.citation]
      const c = shape[f.citation]!.safeParse(raw)
      if (c.success && typeof c.data === 'string') citation = c.data.trim() ? c.data : null
      else if (!c.success) citationProblem = `${f.citation}: ${shown(raw)} is not a string or null`
    }
    return {
      ok: true,
      index: f.index,
      verdict: checked.data as string,
      citation,
      ...(citationProblem ? { citationProblem } : {}),
    }
  })
  return { fields, extra: Object.keys(args).filter((k) => !Object.hasOwn(shape, k)) }
}

/**
 * The arguments at fault in a reply and the N/A reason every statement of the call gets when the
 * call fails as a whole (the FaaF paper's rule: one invalid argument fails the function's
 * invocation). A citation of the wrong type is an invalid argument too. Null when all are valid.
 */
export function callFailure(
  built: VerdictSchema,
  parsed: ParsedVerdicts,
  noun: string,
): { problem: string; fields: string[] } | null {
  const fields: string[] = []
  const problems: string[] = []
  parsed.fields.forEach((f, i) => {
    const names = built.fields[i]!
    if (!f.ok) {
      fields.push(names.verdict)
      problems.push(f.problem)
    } else if (f.citationProblem && names.citation) {
      fields.push(names.citation)
      problems.push(f.citationProblem)
    }
  })
  if (fields.length === 0) return null
  const n = built.fields.length
  const all = n === 1 ? `its ${noun}` : `all ${countOf(n, noun)} in it`
  return {
    problem: `the call failed validation, so ${all} ${n === 1 ? 'is' : 'are'} N/A (${problems.join('; ')})`,
    fields,
  }
}
