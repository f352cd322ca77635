// reports/ turns a dataset's metrics into reports: Markdown, CSV, HTML, JSON, and charts as SVG/PNG.
import type { DatasetMetrics } from '../../shared/contract/metrics'
import { toJsonReport } from '../../shared/metricsJson'
import { toCsv, toHtml, toMarkdown } from './render'

export type ReportFormat = 'md' | 'html' | 'csv' | 'json'

const MIME: Record<ReportFormat, string> = {
  md: 'text/markdown',
  html: 'text/html',
  csv: 'text/csv',
  json: 'application/json',
}

/** A report as text with the file name and type a download should get. */
export function renderReport(
  m: DatasetMetrics,
  format: ReportFormat,
): { fileName: string; mime: string; text: string } {
  const base = `${m.dataset.replace(/[^\w.-]+/g, '_')}-metrics`
  const text =
    format === 'md'
      ? toMarkdown(m)
      : format === 'html'
        ? toHtml(m)
        : format === 'csv'
          ? toCsv(m)
          : `${JSON.stringify(toJsonReport(m), null, 2)}\n`
  return { fileName: `${base}.${format}`, mime: MIME[format], text }
}

export { toJsonReport } from '../../shared/metricsJson'
export { svgToPng } from './png'
export { toCsv, toHtml, toMarkdown } from './render'
