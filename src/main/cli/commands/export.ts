import type { Command } from 'commander'
import {
  datasetIdByName,
  EXPORT_FORMATS,
  type ExportFormat,
  exportBundle,
  exportDataset,
  exportVerdicts,
} from '../../export'
import { CliError, EXIT, parsePositiveInt, printResult } from '../util'
import { withWorkspace } from './session'

interface ExportFlags {
  workspace?: string
  dataset: string
  format: string
  out: string
  annotator?: string
  json?: boolean
}

interface VerdictFlags {
  workspace?: string
  run: string
  out: string
  raw?: boolean
  json?: boolean
}

interface BundleFlags {
  workspace?: string
  dataset: string
  annotator: string
  out: string
  json?: boolean
}

function formatOf(raw: string): ExportFormat {
  const found = EXPORT_FORMATS.find((f) => f === raw)
  if (!found)
    throw new CliError(`--format must be one of ${EXPORT_FORMATS.join(', ')}, got "${raw}"`, EXIT.usage)
  return found
}

/** Registers `export`, `export-verdicts` and `bundle` on the CLI. */
export function registerExportCommands(program: Command): void {
  program
    .command('export')
    .description('Export a dataset (targets layout or WikiEvalFacts layout) with a README.md dataset card')
    .option('--workspace <db>', 'workspace file')
    .requiredOption('--dataset <name>', 'dataset to export')
    .requiredOption('--format <format>', EXPORT_FORMATS.join(', '))
    .requiredOption('--out <dir>', 'folder to write the data file and README.md into')
    .option('--annotator <name>', "only this annotator's labels (WikiEvalFacts: instead of the gold)")
    .option('--json', 'print the result as JSON')
    .action(async (flags: ExportFlags) => {
      const format = formatOf(flags.format)
      const result = await withWorkspace(flags.workspace, (ws) =>
        exportDataset(ws, {
          datasetId: datasetIdByName(ws, flags.dataset),
          format,
          outDir: flags.out,
          annotator: flags.annotator,
        }),
      )
      printResult(flags.json ?? false, result, () => `Wrote ${result.files.join(' and ')}`)
    })

  program
    .command('export-verdicts')
    .description("Export a run's verdicts as JSON lines (or CSV when --out ends in .csv)")
    .option('--workspace <db>', 'workspace file')
    .requiredOption('--run <id>', 'run id')
    .requiredOption('--out <file>', 'file to write')
    .option('--raw', 'include the raw provider request and reply of each call')
    .option('--json', 'print the result as JSON')
    .action(async (flags: VerdictFlags) => {
      const runId = parsePositiveInt('--run', flags.run)!
      const result = await withWorkspace(flags.workspace, (ws) =>
        exportVerdicts(ws, { runId, out: flags.out, raw: flags.raw ?? false }),
      )
      printResult(flags.json ?? false, result, () => `Wrote ${result.rows} verdicts to ${result.file}`)
    })

  program
    .command('bundle')
    .description("Write one annotator's labels of a dataset as a bundle another workspace can merge")
    .option('--workspace <db>', 'workspace file')
    .requiredOption('--dataset <name>', 'dataset the labels belong to')
    .requiredOption('--annotator <name>', 'whose labels to bundle')
    .requiredOption('--out <file>', 'bundle file to write (JSON lines)')
    .option('--json', 'print the result as JSON')
    .action(async (flags: BundleFlags) => {
      const result = await withWorkspace(flags.workspace, (ws) => {
        const annotator = ws.db.prepare('SELECT id FROM annotators WHERE name = ?').get(flags.annotator) as
          | { id: number }
          | undefined
        if (!annotator) throw new CliError(`No annotator named "${flags.annotator}" in this workspace`)
        return exportBundle(ws, {
          datasetId: datasetIdByName(ws, flags.dataset),
          annotatorId: annotator.id,
          out: flags.out,
        })
      })
      printResult(flags.json ?? false, result, () => `Wrote ${result.labels} labels to ${result.file}`)
    })
}
