import { countOf } from './plural'
/*
 * Control answers as a lead types or loads them, one per line:
 *   item,variant,unit,verdict   the item's id as imported, the candidate variant, the unit's
 *                               1-based number as the Units view and `factlab units list` show it
 *   targetId,verdict            the internal target id (older files, scripts)
 * Commas, tabs or semicolons separate the values; a value may be "quoted" to hold one of them. A
 * first line of column names is skipped, as are empty lines and lines starting with #.
 *
 * Pure: the Controls panel runs it as the lead types, to say at once which lines it cannot read;
 * the main process runs it again and finds each named target (src/main/projects/controlLines.ts).
 */

export type ControlLine =
  | { line: number; text: string; targetId: number; verdict: string }
  | { line: number; text: string; item: string; variant: string; unit: number; verdict: string }

export interface ControlLineProblem {
  line: number
  text: string
  problem: string
}

const HEADER_WORDS = new Set([
  'item',
  'variant',
  'unit',
  'verdict',
  'answer',
  'targetid',
  'target_id',
  'target',
])

/** The values of one line: split at , tab or ;, a "quoted" value kept whole ("" is a quote). */
export function splitControlLine(line: string): string[] {
  const out: string[] = []
  let value = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        value += '"'
        i++
      } else if (ch === '"') quoted = false
      else value += ch
    } else if (ch === '"' && value.trim() === '') {
      quoted = true
      value = ''
    } else if (ch === ',' || ch === '\t' || ch === ';') {
      out.push(value.trim())
      value = ''
    } else value += ch
  }
  out.push(value.trim())
  return out
}

const WANTED = 'write item,variant,unit,verdict (or targetId,verdict)'

/** Every line read as a control answer, or the reason it could not be. */
export function parseControlLines(text: string): { lines: ControlLine[]; problems: ControlLineProblem[] } {
  const lines: ControlLine[] = []
  const problems: ControlLineProblem[] = []
  let first = true
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const t = raw.trim()
    if (t === '' || t.startsWith('#')) continue
    const line = i + 1
    const values = splitControlLine(t)
    const header = first && values.every((v) => HEADER_WORDS.has(v.toLowerCase().replace(/\s+/g, '')))
    first = false
    if (header) continue
    const problem = (why: string) => problems.push({ line, text: t, problem: why })
    if (values.length === 2) {
      const [id = '', verdict = ''] = values
      if (!/^\d+$/.test(id)) problem(`“${id}” is not a target id; ${WANTED}`)
      else if (verdict === '') problem('no verdict after the target id')
      else lines.push({ line, text: t, targetId: Number(id), verdict })
    } else if (values.length === 4) {
      const [item = '', variant = '', unit = '', verdict = ''] = values
      if (item === '') problem('no item id')
      else if (variant === '') problem('no variant')
      else if (!/^\d+$/.test(unit) || Number(unit) < 1)
        problem(`the unit “${unit}” is not a unit number (1, 2, … as the Units view shows them)`)
      else if (verdict === '') problem('no verdict')
      else lines.push({ line, text: t, item, variant, unit: Number(unit), verdict })
    } else problem(`${countOf(values.length, 'value')} where 4 (or 2) are expected: ${WANTED}`)
  }
  return { lines, problems }
}

/** "line 3 “hello world”: why" for each problem, the first few of them. */
export function describeControlProblems(problems: readonly ControlLineProblem[], shown = 5): string {
  const short = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}…` : s)
  const listed = problems.slice(0, shown).map((p) => `line ${p.line} “${short(p.text)}”: ${p.problem}`)
  const more = problems.length > shown ? ` (and ${problems.length - shown} more)` : ''
  return `${listed.join('; ')}${more}`
}
