import { formatCount } from './plural'

/** One export progress report in words, the same in the CLI's stderr line and the export dialog. */
export function exportProgressText(done: number, total: number): string {
  const pct = total === 0 ? 100 : Math.floor((done / total) * 100)
  return `Exporting: ${formatCount(done)} of ${formatCount(total)} targets written (${pct}%)`
}
