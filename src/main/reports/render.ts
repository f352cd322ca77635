import { escapeXml, reportCharts } from '../../shared/charts'
import type { DatasetMetrics } from '../../shared/contract/metrics'
import { toJsonReport } from '../../shared/metricsJson'
import { countOf } from '../../shared/plural'
import { reportTables, type Table } from './tables'

/** Pipes would split the cell; angle brackets would be read as HTML by most renderers. */
function mdCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, ' ')
}

function mdTable(t: Table): string {
  if (t.rows.length === 0) return `## ${t.title}\n\nNothing to show yet.\n`
  const lines = [
    `## ${t.title}`,
    '',
    ...(t.note ? [t.note, ''] : []),
    `| ${t.head.map(mdCell).join(' | ')} |`,
    `| ${t.head.map(() => '---').join(' | ')} |`,
    ...t.rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`),
    '',
  ]
  return lines.join('\n')
}

function header(m: DatasetMetrics): string {
  return `Dataset **${m.dataset}** (${m.schema}): ${countOf(m.targets, 'target')}, ${m.goldTargets} with gold, ${countOf(m.judges.length, 'judge run')}. Bootstrap seed ${m.seed}.`
}

/**
 * Markdown report. Charts are referenced as sibling files (SVG or PNG) when `chartFiles` is given
 * (the CLI writes them next to the report).
 */
export function toMarkdown(m: DatasetMetrics, chartFiles?: { byVariant: string; costError: string }): string {
  const charts = chartFiles
    ? `![Error rate by variant](${chartFiles.byVariant})\n\n![Cost against error rate](${chartFiles.costError})\n\n`
    : ''
  return `# FactLab metrics: ${m.dataset}\n\n${header(m)}\n\n${charts}${reportTables(m).map(mdTable).join('\n')}`
}

function htmlTable(t: Table): string {
  const body =
    t.rows.length === 0
      ? '<p>Nothing to show yet.</p>'
      : `<table><thead><tr>${t.head.map((h) => `<th>${escapeXml(h)}</th>`).join('')}</tr></thead><tbody>${t.rows
          .map((r) => `<tr>${r.map((c) => `<td>${escapeXml(c)}</td>`).join('')}</tr>`)
          .join('')}</tbody></table>`
  return `<section><h2>${escapeXml(t.title)}</h2>${t.note ? `<p class="note">${escapeXml(t.note)}</p>` : ''}${body}</section>`
}

const CSS = `body{font-family:system-ui,sans-serif;margin:2rem;color:#222;max-width:1200px}
table{border-collapse:collapse;margin:.5rem 0 1.5rem;font-size:13px}th,td{border:1px solid #ccc;padding:4px 8px;text-align:right}
th:first-child,td:first-child{text-align:left}th{background:#f3f3f3}.note{color:#555;font-size:13px}.charts{display:flex;flex-wrap:wrap;gap:1rem}`

/**
 * One self-contained HTML page: inline CSS and charts, no scripts, no external requests. The
 * charts are inline SVG unless `charts` gives other markup (the CLI's `--charts png`: PNG images
 * as data URIs).
 */
export function toHtml(m: DatasetMetrics, charts?: string): string {
  const drawn =
    charts ??
    reportCharts(toJsonReport(m))
      .map((c) => c.svg)
      .join('')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"><title>FactLab metrics: ${escapeXml(m.dataset)}</title><style>${CSS}</style></head><body><h1>FactLab metrics: ${escapeXml(m.dataset)}</h1><p>${escapeXml(header(m).replace(/\*\*/g, ''))}</p><div class="charts">${drawn}</div>${reportTables(m).map(htmlTable).join('')}</body></html>\n`
}

function csvCell(v: string | number | null): string {
  if (v === null) return ''
  const s = String(v)
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

/** One row per judge or annotator and variant ("all" for the whole dataset); empty cells are not defined. */
export function toCsv(m: DatasetMetrics): string {
  const head = [
    'kind',
    'name',
    'run',
    'variant',
    'n',
    'judged',
    'na',
    'errors',
    'na_rate',
    'transport_error_rate',
    'error_rate',
    'error_rate_low',
    'error_rate_high',
    'accuracy',
    'f1_unsupported',
    'f1_low',
    'f1_high',
    'kappa',
    'calls',
    'prompt_tokens',
    'completion_tokens',
    'cost',
    // The cost split by price (shared/costSplit.ts): output tokens are completion_tokens.
    'uncached_tokens',
    'cache_read_tokens',
    'cache_write_tokens',
    'uncached_cost',
    'cache_read_cost',
    'cache_write_cost',
    'output_cost',
  ]
  const noSplit = [null, null, null, null, null, null, null]
  const json = toJsonReport(m)
  type F = (typeof json.judges)[number]['by_variant'][string]
  const figs = (f: F) => [
    f.n,
    f.judged,
    f.na,
    f.errors,
    f.na_rate,
    f.transport_error_rate,
    f.error_rate,
    f.error_rate_ci?.[0] ?? null,
    f.error_rate_ci?.[1] ?? null,
    f.accuracy,
    f.f1_unsupported,
    f.f1_ci?.[0] ?? null,
    f.f1_ci?.[1] ?? null,
    f.kappa,
  ]
  const rows: (string | number | null)[][] = []
  for (const j of json.judges) {
    const cost = [j.calls, j.prompt_tokens, j.completion_tokens, j.cost]
    const s = j.cost_split
    const split = [
      s.uncached.tokens,
      s.cache_read.tokens,
      s.cache_write.tokens,
      s.uncached.cost,
      s.cache_read.cost,
      s.cache_write.cost,
      s.output.cost,
    ]
    rows.push(['judge', j.label, j.run, 'all', ...figs(j), ...cost, ...split])
    for (const [v, f] of Object.entries(j.by_variant))
      rows.push(['judge', j.label, j.run, v, ...figs(f), null, null, null, null, ...noSplit])
  }
  for (const h of json.humans) {
    rows.push(['human', h.annotator, null, 'all', ...figs(h), null, null, null, h.cost, ...noSplit])
    for (const [v, f] of Object.entries(h.by_variant))
      rows.push(['human', h.annotator, null, v, ...figs(f), null, null, null, null, ...noSplit])
  }
  return `${[head, ...rows].map((r) => r.map(csvCell).join(',')).join('\n')}\n`
}
