import type { LabelSchema } from '../../shared/labelSchemas'
import { RowError } from './errors'
import { parseLiteral } from './pyLiteral'

/**
 * Pure text helpers of the importers: splitting a cell of facts, matching label keys to facts,
 * and reading verdicts as the many spellings datasets use.
 */

/**
 * A comparison key that ignores case, quotes, punctuation and spacing: label keys in released
 * datasets drift from the fact text in exactly those ways.
 */
export function matchKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '')
}

/** Splits a cell of facts: "- " bullets (one per line), plain lines, or a JSON/Python list. */
export function splitFacts(cell: string, split: 'dash-list' | 'lines' | 'list'): string[] {
  const trimmed = cell.trim()
  if (trimmed === '') return []
  if (split === 'list' || (trimmed.startsWith('[') && trimmed.endsWith(']'))) {
    let parsed: unknown
    try {
      parsed = parseLiteral(trimmed)
    } catch (error) {
      if (split === 'list') throw new RowError(`not a list of facts (${(error as Error).message})`)
      parsed = null
    }
    if (Array.isArray(parsed)) return parsed.map((f) => String(f ?? '').trim()).filter((f) => f !== '')
    if (split === 'list') throw new RowError('not a list of facts')
  }
  const lines = trimmed.split(/\r?\n/)
  if (split === 'lines') return lines.map((l) => l.trim()).filter((l) => l !== '')
  // A fact may wrap onto the next line; only a line that starts with "- " starts a new fact.
  const facts: string[] = []
  for (const raw of lines) {
    const line = raw.trim()
    if (line === '') continue
    const bullet = /^[-–•*]\s+/.exec(line)
    if (bullet || facts.length === 0) facts.push(line.slice(bullet?.[0].length ?? 0))
    else facts[facts.length - 1] += ` ${line}`
  }
  return facts.filter((f) => f !== '')
}

const TRUE_WORDS = new Set(['true', 't', 'yes', 'y', '1', 'supported', 'correct', 'pass'])
const FALSE_WORDS = new Set(['false', 'f', 'no', 'n', '0', 'unsupported', 'incorrect', 'fail'])

/**
 * Reads a raw cell as a verdict of the schema, or throws a RowError saying which values are
 * allowed. Binary-looking schemas accept true/false, yes/no and 1/0 spellings.
 */
export function toVerdict(schema: LabelSchema, raw: unknown): string {
  if (schema.type === 'numeric') {
    const n =
      typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN
    if (!Number.isFinite(n)) throw new RowError(`${show(raw)} is not a number`)
    if (n < schema.min || n > schema.max) throw new RowError(`${n} is outside ${schema.min}–${schema.max}`)
    return String(n)
  }
  const text =
    typeof raw === 'boolean' || typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw : ''
  const word = text
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
  const direct = schema.values.find((v) => v.toLowerCase() === word)
  if (direct) return direct
  if (schema.values.includes('not_clear') && word.startsWith('not_clear')) return 'not_clear'
  // Only a two-valued schema reads 1/0, true/false, yes/no as its two values; for three or
  // more values such a word would be a guess.
  if (schema.values.length === 2) {
    const supported = schema.values.find((v) => schema.binary[v] === 'supported')
    const unsupported = schema.values.find((v) => schema.binary[v] === 'unsupported')
    if (TRUE_WORDS.has(word) && supported) return supported
    if (FALSE_WORDS.has(word) && unsupported) return unsupported
  }
  throw new RowError(`${show(raw)} is not one of ${schema.values.join(', ')}`)
}

function show(raw: unknown): string {
  if (typeof raw === 'string') return `"${raw.length > 40 ? `${raw.slice(0, 40)}…` : raw}"`
  return raw === undefined ? 'an empty value' : (JSON.stringify(raw) ?? String(raw))
}

/** A cell as text: strings as they are, numbers and booleans printed, nothing else. */
export function cellText(row: Record<string, unknown>, column: string, required: boolean): string | null {
  const v = row[column]
  if (v === undefined || v === null || v === '') {
    if (required) throw new RowError(v === undefined ? 'missing' : 'empty', column)
    return null
  }
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  throw new RowError(`expected text, found ${Array.isArray(v) ? 'a list' : 'an object'}`, column)
}
