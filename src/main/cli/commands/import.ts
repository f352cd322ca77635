import { readFile } from 'node:fs/promises'
import type { Command } from 'commander'
import { z } from 'zod'
import {
  IMPORT_FORMATS,
  ImportFormat,
  Mapping,
  PRESET_NAMES,
  PresetName,
} from '../../../shared/importMapping'
import { groupWarnings, type ImportWarning } from '../../../shared/importWarnings'
import { countOf, verdictsWords } from '../../../shared/plural'
import { ImportError, ImportStopped, importFile, importVerdicts } from '../../import'
import { CliError, cliProgress, EXIT, printResult } from '../util'
import { withWorkspace } from './session'

interface ImportFlags {
  workspace?: string
  preset?: string
  mapping?: string
  dataset?: string
  format?: string
  skipBadRows?: boolean
  creditExistingPeople?: boolean
  secondFile?: string
  dimension?: string
  json?: boolean
}

interface VerdictFlags {
  workspace?: string
  dataset?: string
  model?: string
  method?: string
  format?: string
  skipBadRows?: boolean
  unitBase?: string
  json?: boolean
}

/** A flag naming one of a closed list; a wrong value is told the whole list. */
function parseChoice<T extends z.ZodType>(
  schema: T,
  values: readonly string[],
  flag: string,
  raw: string | undefined,
): z.infer<T> | undefined {
  if (raw === undefined) return undefined
  const parsed = schema.safeParse(raw)
  if (!parsed.success)
    throw new CliError(`${flag} must be one of ${values.join(', ')}, got "${raw}"`, EXIT.usage)
  return parsed.data
}

async function readMapping(file: string): Promise<Mapping> {
  let value: unknown
  try {
    value = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    throw new CliError(`${file}: cannot read the mapping as JSON (${(error as Error).message})`)
  }
  const parsed = Mapping.safeParse(value)
  if (!parsed.success) throw new CliError(`${file}: invalid mapping\n${z.prettifyError(parsed.error)}`)
  return parsed.data
}

/**
 * Import errors are bad input (exit 1), except an import a busy, full or failing workspace
 * stopped: nothing was imported and the same command goes through later (exit 75, as every
 * other write). Anything else propagates as it is.
 */
async function asBadInput<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    if (error instanceof ImportStopped && error.passing) throw new CliError(error.message, EXIT.tempFail)
    if (error instanceof ImportError) throw new CliError(error.message, EXIT.badInput)
    throw error
  }
}

function skippedLines(skipped: { at: string; reason: string; file?: string }[]): string {
  return skipped.map((s) => `\n  skipped ${s.file ? `${s.file}, ` : ''}${s.at}: ${s.reason}`).join('')
}

/** Each kind of warning under its heading, one indented line per place, as the import dialog lists them. */
function warningLines(warnings: readonly ImportWarning[]): string {
  return groupWarnings(warnings)
    .map((g) => `\n${g.heading}:${g.lines.map((l) => `\n  ${l}`).join('')}`)
    .join('')
}

/** Registers `import` and `import-verdicts` on the CLI. */
export function registerImportCommands(program: Command): void {
  program
    .command('import <files...>')
    .description(
      'Import a file (JSONL, JSON array, CSV/TSV, Parquet) as a new dataset; nothing is written if a row is bad. ' +
        'Several files or a folder make one dataset, each file a candidate variant named from its file name ' +
        '(RefChecker: <source>_<model>_answers.json → <model>)',
    )
    .option('--workspace <db>', 'workspace file')
    .option('--preset <name>', `layout preset: ${PRESET_NAMES.join(', ')} (detected when omitted)`)
    .option('--mapping <file>', 'JSON column mapping, instead of a preset')
    .option('--dataset <name>', 'dataset name (default: the file name)')
    .option('--format <format>', `file format: ${IMPORT_FORMATS.join(', ')} (detected when omitted)`)
    .option('--skip-bad-rows', 'import the good rows and list the skipped ones')
    .option(
      '--credit-existing-people',
      'with --mapping: file label columns named after people already in the workspace as their labels (refused otherwise)',
    )
    .option('--second-file <file>', 'RefChecker: file with question and reference per id')
    .option('--dimension <name>', 'SummEval: the scored dimension (default consistency)')
    .option('--json', 'print the report as JSON')
    .action(async (files: string[], flags: ImportFlags) => {
      const file = files.length === 1 ? files[0]! : files
      if (flags.preset && flags.mapping) throw new CliError('use --preset or --mapping, not both', EXIT.usage)
      const preset = parseChoice(PresetName, PRESET_NAMES, '--preset', flags.preset)
      const format = parseChoice(ImportFormat, IMPORT_FORMATS, '--format', flags.format)
      const mapping = flags.mapping ? await readMapping(flags.mapping) : undefined
      const json = flags.json ?? false
      const report = await withWorkspace(
        flags.workspace,
        (ws) => {
          const bar = cliProgress('import', undefined, json)
          return asBadInput(() =>
            importFile(ws, {
              file,
              format,
              preset,
              mapping,
              datasetName: flags.dataset,
              skipBadRows: flags.skipBadRows ?? false,
              creditExistingPeople: flags.creditExistingPeople ?? false,
              secondFile: flags.secondFile,
              presetOptions: flags.dimension ? { dimension: flags.dimension } : undefined,
              onProgress: (rows) => bar.update(rows),
            }),
          ).finally(() => bar.stop())
        },
        'mayCreate',
      )
      printResult(
        json,
        report,
        () =>
          `Imported "${report.dataset}": ${countOf(report.items, 'item')}, ${countOf(report.candidates, 'candidate')}, ${countOf(report.units, 'unit')}, ` +
          `${countOf(report.labels, 'label')} by ${countOf(report.annotators, 'annotator')}` +
          (report.skipped.length
            ? `; skipped ${countOf(report.skipped.length, 'row')}${skippedLines(report.skipped)}`
            : '') +
          (report.files
            ? report.files
                .map((f) => `\n  ${f.file} → variant "${f.variant}" (${countOf(f.rows, 'row')})`)
                .join('')
            : '') +
          warningLines(report.warnings),
      )
    })

  program
    .command('import-verdicts <files...>')
    .description(
      'Import verdicts of a judge run elsewhere (item_id, variant, unit, verdict) as a finished run; ' +
        'several files or a folder make one run per file (named from the file unless --model), all or none',
    )
    .option('--workspace <db>', 'workspace file')
    .option('--dataset <name>', 'the dataset the verdicts are about')
    .option('--model <model>', 'model that made the verdicts')
    .option('--method <method>', 'method that made the verdicts')
    .option('--format <format>', `file format: ${IMPORT_FORMATS.join(', ')}`)
    .option('--skip-bad-rows', 'import the good rows and list the skipped ones')
    .option(
      '--unit-base <n>',
      'how the file numbers units: 1 (default, as `units list` shows them) or 0 (older files: 0-based within each candidate, as fact_0 … fact_n)',
    )
    .option('--json', 'print the report as JSON')
    .action(async (files: string[], flags: VerdictFlags) => {
      const file = files.length === 1 ? files[0]! : files
      if (flags.unitBase !== undefined && flags.unitBase !== '0' && flags.unitBase !== '1')
        throw new CliError(`--unit-base must be 0 or 1, got "${flags.unitBase}"`, EXIT.usage)
      if (!flags.dataset) throw new CliError('--dataset <name> is required', EXIT.usage)
      const datasetName = flags.dataset
      const format = parseChoice(ImportFormat, IMPORT_FORMATS, '--format', flags.format)
      const report = await withWorkspace(flags.workspace, (ws) =>
        asBadInput(() =>
          importVerdicts(ws, {
            file,
            datasetName,
            format,
            model: flags.model,
            method: flags.method,
            skipBadRows: flags.skipBadRows ?? false,
            unitBase: flags.unitBase === '0' ? 0 : 1,
          }),
        ),
      )
      printResult(
        flags.json ?? false,
        report,
        () =>
          (report.runs
            ? `Imported ${countOf(report.runs.length, 'run')}, ${verdictsWords(report.verdicts, report.na)}:${report.runs.map((r) => `\n  run ${r.runId} "${r.model}": ${verdictsWords(r.verdicts, r.na)} from ${r.file}`).join('')}`
            : `Imported run ${report.runId}: ${verdictsWords(report.verdicts, report.na)}`) +
          (report.skipped.length
            ? `; skipped ${countOf(report.skipped.length, 'row')}${skippedLines(report.skipped)}`
            : ''),
      )
    })
}
