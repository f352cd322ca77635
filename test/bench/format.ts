/**
 * The bench's figures and how they read: one line per figure with its value, its bar, the ratio
 * to the bar and whether it passes, plus the JSON file that lets two commits be compared. Pure:
 * no clock, no files, no process; the runner (index.ts) and the parts (record.ts) do the I/O.
 */
import { z } from 'zod'

export const figureSchema = z.object({
  /** The bench part that measured it (its file name without .ts). */
  part: z.string().min(1),
  name: z.string().min(1),
  value: z.number(),
  unit: z.string(),
  /** The design's bar in the same unit; null for a figure printed for information only. */
  bar: z.number().positive().nullable(),
  /** 'max': the value must stay at or under the bar (a time); 'min': at or over it (a rate). */
  kind: z.enum(['max', 'min']),
  note: z.string().optional(),
})
export type Figure = z.infer<typeof figureSchema>

export const reportSchema = z.object({
  version: z.literal(1),
  commit: z.string().nullable(),
  machine: z.string(),
  date: z.string(),
  figures: z.array(figureSchema),
})
export type BenchReport = z.infer<typeof reportSchema>

/** value / bar: at most 1 passes a 'max' bar, at least 1 passes a 'min' bar; null without a bar. */
export function ratio(f: Pick<Figure, 'value' | 'bar'>): number | null {
  if (f.bar === null || !Number.isFinite(f.value)) return null
  return f.value / f.bar
}

export function passes(f: Pick<Figure, 'value' | 'bar' | 'kind'>): boolean | null {
  const r = ratio(f)
  if (r === null) return null
  return f.kind === 'max' ? r <= 1 : r >= 1
}

/** A number with the precision a reader needs: three significant digits, no exponent. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n)
  const a = Math.abs(n)
  if (a >= 1000) return Math.round(n).toLocaleString('en-US')
  if (a >= 100) return n.toFixed(0)
  if (a >= 10) return n.toFixed(1)
  if (a >= 1) return n.toFixed(2)
  if (a === 0) return '0'
  return n.toPrecision(2)
}

const withUnit = (n: number, unit: string) => (unit === '' ? formatNumber(n) : `${formatNumber(n)} ${unit}`)

export function formatBar(f: Pick<Figure, 'bar' | 'kind' | 'unit'>): string {
  if (f.bar === null) return '(no bar)'
  return `bar ${f.kind === 'max' ? '≤' : '≥'} ${withUnit(f.bar, f.unit)}`
}

/** One figure as one line: name, value, bar, ratio and verdict in fixed columns. */
export function formatLine(f: Figure, nameWidth = 46): string {
  const r = ratio(f)
  const p = passes(f)
  const verdict = p === null ? '' : p ? 'pass' : 'FALLS SHORT'
  const cells = [
    f.name.padEnd(nameWidth),
    withUnit(f.value, f.unit).padStart(14),
    formatBar(f).padEnd(20),
    (r === null ? '' : `${r.toFixed(2)}×`).padStart(7),
    verdict.padEnd(11),
  ]
  return `${cells.join('  ').trimEnd()}${f.note ? `  — ${f.note}` : ''}`
}

export function summary(figures: readonly Figure[]): string {
  const barred = figures.filter((f) => f.bar !== null)
  const short = barred.filter((f) => passes(f) === false)
  if (barred.length === 0) return `${figures.length} figures, none with a bar`
  return short.length === 0
    ? `all ${barred.length} bars met (${figures.length} figures)`
    : `${barred.length - short.length} of ${barred.length} bars met; short: ${short.map((f) => `${f.part}/${f.name}`).join(', ')}`
}

/** Parses a file written by `--json`, with a message that says which file is wrong. */
export function parseReport(text: string, where: string): BenchReport {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new Error(`${where} is not JSON (write it with npm run bench -- --json ${where})`)
  }
  const r = reportSchema.safeParse(json)
  if (!r.success) throw new Error(`${where} is not a bench report: ${r.error.issues[0]?.message ?? ''}`)
  return r.data
}

const key = (f: Figure) => `${f.part}/${f.name}`

/**
 * Two reports side by side: each figure of either, its value in both, the change (b / a) and
 * whether it moved across its bar. Figures only one side has are listed as such.
 */
export function formatCompare(a: BenchReport, b: BenchReport): string[] {
  const before = new Map(a.figures.map((f) => [key(f), f]))
  const after = new Map(b.figures.map((f) => [key(f), f]))
  const keys = [...new Set([...before.keys(), ...after.keys()])]
  const lines = [
    `a: ${a.commit ?? 'unknown commit'} on ${a.machine} at ${a.date}`,
    `b: ${b.commit ?? 'unknown commit'} on ${b.machine} at ${b.date}`,
  ]
  const width = Math.max(20, ...keys.map((k) => k.length))
  for (const k of keys) {
    const x = before.get(k)
    const y = after.get(k)
    if (!x || !y) {
      const f = (x ?? y)!
      lines.push(`${k.padEnd(width)}  ${x ? 'only in a' : 'only in b'}: ${withUnit(f.value, f.unit)}`)
      continue
    }
    const change = x.value === 0 ? null : y.value / x.value
    // Within half a percent reads as unchanged: the last printed digit is noise.
    const better =
      change === null || Math.abs(change - 1) < 0.005
        ? 'same'
        : (x.kind === 'max') === change < 1
          ? 'better'
          : 'worse'
    const pa = passes(x)
    const pb = passes(y)
    const crossed =
      pa === null || pb === null || pa === pb ? '' : pb ? '; now meets its bar' : '; now falls short'
    lines.push(
      `${k.padEnd(width)}  ${withUnit(x.value, x.unit).padStart(14)} → ${withUnit(y.value, y.unit).padStart(14)}` +
        `  ${change === null ? '' : `${change.toFixed(2)}×`} ${better}${crossed}`.trimEnd(),
    )
  }
  return lines
}
