import { LabelSchema, PRESET_SCHEMAS } from './labelSchemas'

/**
 * A label schema as one cell of an exported file (the targets layout's `dataset_schema` column):
 * the name of a built-in schema when it is exactly that one ("faaf"), so the column reads
 * as a word, and the schema's JSON otherwise (a numeric range, a custom set of verdicts, the
 * holistic grades with partially_pass counted as supported). FactLab's own import reads it back.
 */

/** JSON with object keys sorted: two equal schemas give the same text whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`
  return JSON.stringify(value)
}

type BuiltIn = keyof typeof PRESET_SCHEMAS

export function labelSchemaText(schema: LabelSchema): string {
  const own = canonical(schema)
  for (const name of Object.keys(PRESET_SCHEMAS) as BuiltIn[])
    if (canonical(PRESET_SCHEMAS[name]) === own) return name
  return JSON.stringify(schema)
}

/** The schema a `dataset_schema` cell names or spells out; throws a message saying what is wrong. */
export function parseLabelSchemaText(text: string): LabelSchema {
  const trimmed = text.trim()
  if (Object.hasOwn(PRESET_SCHEMAS, trimmed)) return PRESET_SCHEMAS[trimmed as BuiltIn]
  let json: unknown
  try {
    json = JSON.parse(trimmed)
  } catch {
    throw new Error(
      `"${trimmed.slice(0, 40)}" is neither a built-in label schema (${Object.keys(PRESET_SCHEMAS).join(', ')}) nor a schema in JSON`,
    )
  }
  const parsed = LabelSchema.safeParse(json)
  if (!parsed.success) throw new Error(`not a label schema: ${parsed.error.issues[0]?.message ?? 'invalid'}`)
  return parsed.data
}
