import type { z } from 'zod'

/** JSON columns are re-parsed with zod on read: a hand-edited file cannot smuggle bad shapes in. */
export function parseJson<T extends z.ZodType>(schema: T, text: string | null, column: string): z.infer<T> {
  let value: unknown
  try {
    value = text === null ? null : JSON.parse(text)
  } catch {
    throw new Error(`Column ${column} holds invalid JSON`)
  }
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw new Error(`Column ${column} holds an unexpected shape: ${parsed.error.message}`)
  return parsed.data
}

export function now(): string {
  return new Date().toISOString()
}
