import { countOf, formatCount } from './plural'

/** One export progress report in words, the same in the CLI's stderr line and the export dialog. */
export function exportProgressText(done: number, total: number): string {
  const pct = total === 0 ? 100 : Math.floor((done / total) * 100)
  return `Exporting: ${formatCount(done)} of ${countOf(total, 'target')} written (${pct}%)`
}

/** What the export dialog says under its progress bar: the rows, then the card, or that it is starting. */
export function exportPhaseText(p: { phase: 'rows' | 'card'; done: number; total: number } | null): string {
  if (p === null) return 'Exporting: reading the dataset…'
  if (p.phase === 'card') return 'Exporting: every row is written; now the README.md dataset card…'
  return exportProgressText(p.done, p.total)
}
