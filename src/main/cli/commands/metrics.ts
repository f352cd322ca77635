import { mkdirSync, writeFileSync } from 'node:fs'
import { basename, dirname, extname, join } from 'node:path'
import type { Command } from 'commander'
import { computeDatasetMetrics } from '../../metrics/service'
import { costVsErrorSvg, errorByVariantSvg, toCsv, toHtml, toJsonReport, toMarkdown } from '../../reports'
import { findDatasetByName } from '../../store/repos/datasets'
import { CliError, EXIT, parsePositiveInt, withWorkspace } from '../util'

interface MetricsFlags {
  workspace?: string
  dataset?: string
  json?: boolean
  format?: string
  out?: string
  seed?: string
}

const FORMATS = ['md', 'csv', 'html'] as const

/** Registers `metrics`: every judge, human and agreement figure of one dataset. */
export function registerMetricsCommands(program: Command): void {
  program
    .command('metrics')
    .description('Error rates, F1, κ, agreement and cost of every judge run on a dataset')
    .option('--workspace <file>', 'workspace file')
    .option('--dataset <name>', 'dataset name')
    .option('--json', 'print the stable JSON shape (docs/metrics-json.md) on stdout')
    .option('--format <format>', 'report format: md, csv or html (with --out)')
    .option('--out <path>', 'file to write the report to (md also writes its charts as SVG beside it)')
    .option('--seed <n>', 'bootstrap seed (default 1)')
    .action(async (flags: MetricsFlags) => {
      if (!flags.dataset) throw new CliError('--dataset <name> is required', EXIT.usage)
      if (flags.json && flags.format)
        throw new CliError('use either --json or --format, not both', EXIT.usage)
      const format = flags.format as (typeof FORMATS)[number] | undefined
      if (format && !FORMATS.includes(format))
        throw new CliError(`--format must be one of ${FORMATS.join(', ')}, got "${flags.format}"`, EXIT.usage)
      if (format && !flags.out) throw new CliError('--format needs --out <path>', EXIT.usage)
      const seed = parsePositiveInt('--seed', flags.seed)
      const name = flags.dataset
      await withWorkspace(flags.workspace, (ws) => {
        const dataset = findDatasetByName(ws.db, name)
        if (!dataset) throw new CliError(`No dataset named "${name}" in ${flags.workspace}`)
        const m = computeDatasetMetrics(ws.db, dataset.id, { seed })
        if (flags.json) {
          process.stdout.write(`${JSON.stringify(toJsonReport(m), null, 2)}\n`)
          return
        }
        if (format && flags.out) {
          mkdirSync(dirname(flags.out), { recursive: true })
          if (format === 'md') {
            const stem = basename(flags.out, extname(flags.out))
            const charts = { byVariant: `${stem}-by-variant.svg`, costError: `${stem}-cost-error.svg` }
            writeFileSync(join(dirname(flags.out), charts.byVariant), errorByVariantSvg(m))
            writeFileSync(join(dirname(flags.out), charts.costError), costVsErrorSvg(m))
            writeFileSync(flags.out, toMarkdown(m, charts))
          } else writeFileSync(flags.out, format === 'csv' ? toCsv(m) : toHtml(m))
          process.stdout.write(`Wrote ${flags.out}\n`)
          return
        }
        process.stdout.write(`${toMarkdown(m)}\n`)
      })
    })
}
