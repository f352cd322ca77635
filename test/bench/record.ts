/**
 * Where the bench parts report their figures: each call prints one line (format.ts) and keeps the
 * figure for `--json`. The runner sets the part before it calls a part's functions.
 */
import { type Figure, formatLine } from './format'

const figures: Figure[] = []
let part = 'bench'

export function setPart(name: string): void {
  part = name
}

export function recorded(): readonly Figure[] {
  return figures
}

/** Figures a part measured in a process of its own (see index.ts), kept as if measured here. */
export function adopt(measured: readonly Figure[]): void {
  figures.push(...measured)
}

/** A figure with a bar: kind 'max' for times and sizes, 'min' for rates and ratios. */
export function figure(
  name: string,
  value: number,
  unit: string,
  bar: number | null,
  kind: 'max' | 'min' = 'max',
  note?: string,
): Figure {
  const f: Figure = { part, name, value, unit, bar, kind, ...(note ? { note } : {}) }
  figures.push(f)
  process.stdout.write(`${formatLine(f)}\n`)
  return f
}

/** A figure printed for information (no bar) where less is better: times, sizes, memory. */
export function info(name: string, value: number, unit: string, note?: string): Figure {
  return figure(name, value, unit, null, 'max', note)
}

/** A figure printed for information (no bar) where more is better: rates and ratios. */
export function infoRate(name: string, value: number, unit: string, note?: string): Figure {
  return figure(name, value, unit, null, 'min', note)
}

/** Resident memory of this process now, in MB, printed as an information line. */
export function rss(step: string): number {
  const mb = process.memoryUsage().rss / 1024 / 1024
  info(`RSS after ${step}`, mb, 'MB')
  return mb
}

export function note(text: string): void {
  process.stdout.write(`  ${text}\n`)
}

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}
