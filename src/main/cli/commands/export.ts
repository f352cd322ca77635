import { resolve } from 'node:path'
import type { Command } from 'commander'
import { events } from '../../../shared/contract/events'
import { countOf } from '../../../shared/plural'
import { EXPORT_FORMATS, type ExportFormat } from '../../export'
import { notPackageAnnotator } from '../../projects/packageOwner'
import { exportProgressPrinter } from '../progressLine'
import { CliError, EXIT, printResult, runIdArg } from '../util'
import { withSession } from './session'

interface ExportFlags {
  workspace?: string
  dataset: string
  format: string
  out: string
  annotator?: string
  json?: boolean
  progress?: boolean
}

interface VerdictFlags {
  workspace?: string
  run?: string
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
    .requiredOption('--out <dir>', 'new or empty folder to write the data file and README.md into')
    .option('--annotator <name>', "only this annotator's labels (WikiEvalFacts: instead of the gold)")
    .option('--json', 'print the result as JSON')
    .option('--progress', 'print targets written on stderr even when it is not a terminal')
    .action(async (flags: ExportFlags) => {
      const format = formatOf(flags.format)
      const print = exportProgressPrinter(process.stderr, {
        progress: flags.progress ?? false,
        json: flags.json ?? false,
      })
      const result = await withSession(flags.workspace, undefined, async (s) => {
        const datasetId = await s.datasetId(flags.dataset)
        const stop = print
          ? s.ctx.events.subscribe((name, payload) => {
              if (name !== 'exports.progress') return
              const p = events['exports.progress'].parse(payload)
              // The card takes a moment after the last row: the line ends with the rows.
              if (p.datasetId === datasetId && p.phase === 'rows') print(p.done, p.total)
            })
          : () => {}
        try {
          return await s.call('exports.dataset', {
            datasetId,
            format,
            outDir: resolve(flags.out),
            ...(flags.annotator === undefined ? {} : { annotator: flags.annotator }),
          })
        } finally {
          stop()
        }
      })
      printResult(
        flags.json ?? false,
        result,
        () => `Wrote ${result.files.join(' and ')}${result.note ? `\n${result.note}` : ''}`,
      )
    })

  program
    .command('export-verdicts [run]')
    .description("Export a run's verdicts as JSON lines (or CSV when --out ends in .csv)")
    .option('--workspace <db>', 'workspace file')
    .option('--run <id>', 'run id (or give it as the first argument)')
    .requiredOption('--out <file>', 'file to write (must not exist yet)')
    .option('--raw', 'include the raw provider request and reply of each call')
    .option('--json', 'print the result as JSON')
    .action(async (run: string | undefined, flags: VerdictFlags) => {
      const runId = runIdArg('factlab export-verdicts', run, flags.run)
      const result = await withSession(flags.workspace, undefined, (s) =>
        s.call('exports.verdicts', { runId, out: resolve(flags.out), raw: flags.raw ?? false }),
      )
      printResult(
        flags.json ?? false,
        result,
        () =>
          `Wrote ${countOf(result.rows, 'verdict')} to ${result.file}` +
          (result.responsesFile ? ` and the per-response figures to ${result.responsesFile}` : ''),
      )
    })

  program
    .command('bundle')
    .description("Write one annotator's labels of a dataset as a bundle another workspace can merge")
    .option('--workspace <db>', 'workspace file')
    .requiredOption('--dataset <name>', 'dataset the labels belong to')
    .requiredOption('--annotator <name>', 'whose labels to bundle')
    .requiredOption('--out <file>', 'bundle file to write (JSON lines; must not exist yet)')
    .option('--json', 'print the result as JSON')
    .action(async (flags: BundleFlags) => {
      const result = await withSession(flags.workspace, undefined, async (s) => {
        const datasetId = await s.datasetId(flags.dataset)
        // On a laptop the bundle is the package's annotator's: said before the name is looked up,
        // since "dan" may well not exist there, and the useful answer is whose labels these are.
        const problem = notPackageAnnotator(s.db, datasetId, flags.annotator, 'bundle')
        if (problem)
          throw new CliError(`${problem.message}. Use --annotator ${problem.owner}; no bundle was written`)
        return s.call('exports.bundle', {
          datasetId,
          annotatorId: s.person(flags.annotator, false, '--annotator', false),
          out: resolve(flags.out),
        })
      })
      printResult(
        flags.json ?? false,
        result,
        () => `Wrote ${countOf(result.labels, 'label')} to ${result.file}`,
      )
    })
}
