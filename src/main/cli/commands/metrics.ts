import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { basename, dirname, extname, join } from 'node:path'
import type { Command } from 'commander'
import { costErrorChart, errorByVariantChart } from '../../../shared/charts'
import type { DatasetMetrics } from '../../../shared/contract/metrics'
import { outsidePlanNote } from '../../../shared/outsidePlan'
import { REFCHECKER_NA_RULES, REFCHECKER_NA_WORDS } from '../../../shared/refcheckerNa'
import { svgToPng, toCsv, toHtml, toJsonReport, toMarkdown } from '../../reports'
import { CliError, EXIT, parsePositiveInt } from '../util'
import { withSession } from './session'

interface MetricsFlags {
  workspace?: string
  dataset?: string
  json?: boolean
  format?: string
  out?: string
  seed?: string
  charts?: string
  refcheckerNa?: string
}

const FORMATS = ['md', 'csv', 'html'] as const
const CHART_KINDS = ['svg', 'png', 'both'] as const
type ChartKind = (typeof CHART_KINDS)[number]

/**
 * Writes the two charts beside a Markdown report as SVG, PNG or both, and returns the file names
 * the report should show (SVG where there is one: it stays sharp at any zoom).
 */
async function writeCharts(
  m: DatasetMetrics,
  out: string,
  kind: ChartKind,
): Promise<{ byVariant: string; costError: string }> {
  const dir = dirname(out)
  const stem = basename(out, extname(out))
  const json = toJsonReport(m)
  const charts = [
    { name: `${stem}-by-variant`, svg: errorByVariantChart(json).svg },
    { name: `${stem}-cost-error`, svg: costErrorChart(json).svg },
  ] as const
  const ext = kind === 'png' ? 'png' : 'svg'
  for (const c of charts) {
    if (kind !== 'png') writeFileSync(join(dir, `${c.name}.svg`), c.svg)
    if (kind !== 'svg') writeFileSync(join(dir, `${c.name}.png`), await svgToPng(c.svg))
  }
  return { byVariant: `${charts[0].name}.${ext}`, costError: `${charts[1].name}.${ext}` }
}

/** Charts for an HTML report: undefined keeps the inline SVG; png inlines PNG images instead. */
async function inlineCharts(m: DatasetMetrics, kind: ChartKind): Promise<string | undefined> {
  if (kind !== 'png') return undefined
  const json = toJsonReport(m)
  const charts = [
    { alt: 'Error rate by variant', svg: errorByVariantChart(json).svg },
    { alt: 'Cost against error rate', svg: costErrorChart(json).svg },
  ]
  const imgs = await Promise.all(
    charts.map(
      async (c) =>
        `<img alt="${c.alt}" src="data:image/png;base64,${Buffer.from(await svgToPng(c.svg)).toString('base64')}">`,
    ),
  )
  return imgs.join('')
}

/** Registers `metrics`: every judge, human and agreement figure of one dataset. */
export function registerMetricsCommands(program: Command): void {
  program
    .command('metrics')
    .description('Error rates, F1, κ, agreement and cost of every judge run on a dataset')
    .option('--workspace <file>', 'workspace file')
    .option('--dataset <name>', 'dataset name')
    .option('--json', 'print the stable JSON shape (docs/metrics-json.md) on stdout')
    .option('--format <format>', 'report format: md, csv or html (with --out)')
    .option('--out <path>', 'file to write the report to (md also writes its two charts beside it)')
    .option(
      '--charts <kind>',
      'with --format md: chart files to write beside the report (svg, png or both); with --format html: charts inline as svg or png (both: svg)',
      'both',
    )
    .option('--seed <n>', 'bootstrap seed (default 1)')
    .option(
      '--refchecker-na <rule>',
      `RefChecker datasets: neutral (${REFCHECKER_NA_WORDS.neutral}, default) or left-out (${REFCHECKER_NA_WORDS['left-out']})`,
    )
    .action(async (flags: MetricsFlags) => {
      if (!flags.dataset) throw new CliError('--dataset <name> is required', EXIT.usage)
      if (flags.json && flags.format)
        throw new CliError('use either --json or --format, not both', EXIT.usage)
      const format = flags.format as (typeof FORMATS)[number] | undefined
      if (format && !FORMATS.includes(format))
        throw new CliError(`--format must be one of ${FORMATS.join(', ')}, got "${flags.format}"`, EXIT.usage)
      if (format && !flags.out) throw new CliError('--format needs --out <path>', EXIT.usage)
      const charts = (flags.charts ?? 'both') as ChartKind
      if (!CHART_KINDS.includes(charts))
        throw new CliError(
          `--charts must be one of ${CHART_KINDS.join(', ')}, got "${flags.charts}"`,
          EXIT.usage,
        )
      const seed = parsePositiveInt('--seed', flags.seed)
      const refcheckerNa = REFCHECKER_NA_RULES.find((r) => r === flags.refcheckerNa)
      if (flags.refcheckerNa !== undefined && !refcheckerNa)
        throw new CliError(
          `--refchecker-na must be ${REFCHECKER_NA_RULES.join(' or ')}, got "${flags.refcheckerNa}"`,
          EXIT.usage,
        )
      const name = flags.dataset
      await withSession(flags.workspace, undefined, async (s) => {
        const byDataset = { datasetId: await s.datasetId(name), ...(seed === undefined ? {} : { seed }) }
        // The item-level section comes with its own call (it is kept out of the Compare view's first one).
        const m = {
          ...(await s.call('metrics.compare', { ...byDataset, ...(refcheckerNa ? { refcheckerNa } : {}) })),
          itemLevel: await s.call('metrics.itemLevel', byDataset),
        }
        if (flags.json) {
          process.stdout.write(`${JSON.stringify(toJsonReport(m), null, 2)}\n`)
          return
        }
        if (format && flags.out) {
          // A report is regenerated often, so it is written over; the line says when it was.
          const replacing = existsSync(flags.out)
          mkdirSync(dirname(flags.out), { recursive: true })
          if (format === 'md')
            writeFileSync(flags.out, toMarkdown(m, await writeCharts(m, flags.out, charts)))
          else if (format === 'html') writeFileSync(flags.out, toHtml(m, await inlineCharts(m, charts)))
          else writeFileSync(flags.out, toCsv(m))
          process.stdout.write(`${replacing ? 'Replaced' : 'Wrote'} ${flags.out}\n`)
          return
        }
        // The same sentence the Agreement and Compare views show about people the plan does not name.
        const outside = outsidePlanNote(
          (await s.call('projects.outsidePlan', { datasetId: byDataset.datasetId })).people,
        )
        process.stdout.write(`${outside ? `${outside}\n\n` : ''}${toMarkdown(m)}\n`)
      })
    })
}
