import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { describeControlProblems } from '../../../shared/controlLines'
import { markedWords } from '../../../shared/controlsMarked'
import { countOf } from '../../../shared/plural'
import { resolveControlLines } from '../../projects/controlLines'
import type { Db } from '../../store/connection'
import { UNIT_NUMBERS_SQL } from '../../units/numbering'
import { CliError, EXIT, printResult } from '../util'
import { type Session, withSession } from './session'

/*
 * `factlab controls`: the Project view's Control items panel on the command line. Answers are
 * the panel's lines, `item,variant,unit,verdict` (src/shared/controlLines.ts), from a file or
 * --line; `list` prints them in that same form, so its output can be set again or cleared.
 */

interface ControlFlags {
  workspace?: string
  dataset: string
  file?: string
  line?: string[]
  fromGold?: boolean
  count?: string
  share?: string
  everyTarget?: boolean
  all?: boolean
  json?: boolean
}

export interface NamedControl {
  targetId: number
  item: string
  variant: string
  unit: number
  verdict: string
  source: 'gold' | 'file'
}

/** Each control named as its line says it: item id as imported, variant, unit number. */
function namedControls(db: Db, datasetId: number): NamedControl[] {
  return db
    .prepare(
      `WITH numbers AS (${UNIT_NUMBERS_SQL})
       SELECT k.target_id AS targetId, i.ext_id AS item, c.variant, n.number AS unit, k.verdict, k.source
       FROM controls k JOIN targets t ON t.id = k.target_id JOIN items i ON i.id = t.item_id
       JOIN candidates c ON c.id = t.candidate_id JOIN numbers n ON n.unit_id = t.unit_id
       WHERE k.dataset_id = ? ORDER BY i.position, c.id, n.number`,
    )
    .all(datasetId, datasetId) as NamedControl[]
}

/** A value holding a separator or a quote is quoted, as the panel's reader expects. */
const field = (v: string) => (/[,;\t"]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)
const lineOf = (c: NamedControl) => [c.item, c.variant, String(c.unit), c.verdict].map(field).join(',')

function readLines(f: ControlFlags): string | undefined {
  const parts: string[] = []
  if (f.file !== undefined) {
    try {
      parts.push(readFileSync(f.file, 'utf8'))
    } catch (e) {
      throw new CliError(`Cannot read ${f.file}: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  if (f.line) parts.push(...f.line)
  return parts.length === 0 ? undefined : parts.join('\n')
}

const withDataset = (cmd: Command) =>
  cmd
    .option('--workspace <db>', 'workspace file')
    .requiredOption('--dataset <name>', 'dataset')
    .option('--json', 'print JSON')

const linesOptions = (cmd: Command) =>
  cmd
    .option('--file <answers.csv>', 'lines of item,variant,unit,verdict (or targetId,verdict)')
    .option('--line <item,variant,unit,verdict>', 'one answer; repeat for more', (v, xs: string[] = []) => [
      ...xs,
      v,
    ])

/** Targets the lines name, found as `set` finds them; nothing is cleared while a line names nothing. */
function targetsOfLines(s: Session, datasetId: number, lines: string): number[] {
  const r = resolveControlLines(s.db, datasetId, lines)
  if (r.problems.length > 0)
    throw new CliError(`No controls were cleared. Not understood: ${describeControlProblems(r.problems)}`)
  return r.answers.map((a) => a.targetId)
}

/** --count or --share, read strictly: a typo must not turn into "every gold answer". */
function sampleOf(f: ControlFlags): { count: number } | { share: number } | undefined {
  if (f.count === undefined && f.share === undefined) return undefined
  if (!f.fromGold) throw new CliError('--count and --share go with --from-gold', EXIT.usage)
  if (f.count !== undefined && f.share !== undefined)
    throw new CliError('give --count or --share, not both', EXIT.usage)
  if (f.count !== undefined) {
    const n = Number(f.count)
    if (!Number.isInteger(n) || n < 1)
      throw new CliError(`--count must be a whole number of at least 1, not "${f.count}"`, EXIT.usage)
    return { count: n }
  }
  const share = Number(f.share)
  if (!(share > 0 && share <= 1))
    throw new CliError(
      `--share must be a fraction above 0 and at most 1, e.g. 0.1, not "${f.share}"`,
      EXIT.usage,
    )
  return { share }
}

/** What is left to label once the controls are set aside, said plainly when that is nothing. */
export function toLabelLine(r: { targets: number; toLabel: number }): string {
  return r.toLabel === 0 && r.targets > 0
    ? `${r.targets === 1 ? 'The one target' : `Every one of the ${countOf(r.targets, 'target')}`} is a control: nothing is left to label, and labels given count only as control answers`
    : `${r.toLabel} of ${countOf(r.targets, 'target')} left to label (controls are left out of progress, agreement, cost and judge figures)`
}

/**
 * What `set` marked, and how many of the dataset's targets are controls now: "--count 20" on a
 * 27-target dataset must read as three quarters of it, not as a small sample.
 */
export function markedLine(r: {
  added: number
  already: number
  controls: number
  targets: number
  skipped: number
}): string {
  const share = r.targets > 0 ? ` (${Math.round((100 * r.controls) / r.targets)}%)` : ''
  const skipped =
    r.skipped > 0
      ? `; ${countOf(r.skipped, 'target')} skipped: the dataset's sources disagree on ${r.skipped === 1 ? 'it' : 'them'}`
      : ''
  return `${markedWords(r)}; ${countOf(r.controls, 'control')} in all, of ${countOf(r.targets, 'target')}${share}${skipped}`
}

/** A --count that made most of the dataset controls is said so, with the way back. */
export function countWarning(
  r: { controls: number; targets: number; toLabel: number },
  dataset: string,
): string | undefined {
  if (r.toLabel === 0 || r.controls * 2 <= r.targets) return undefined
  return `More than half the targets are now controls: --count counts targets (a unit in one answer), not items. factlab controls clear --all --dataset ${dataset} unmarks every control (labels stay); --share 0.1 draws a tenth of the targets.`
}

export function registerControlsCommands(program: Command): void {
  const controls = program
    .command('controls')
    .description(
      'Control items of a dataset, as the Project view marks them: set (known answers as item,variant,unit,verdict lines, or the gold answers), list, clear',
    )

  linesOptions(
    withDataset(
      controls
        .command('set')
        .description(
          "Mark targets as controls with known answers (--file, --line) or from every adjudicated or imported gold answer, or else the dataset's own reference labels (--from-gold); all or nothing",
        ),
    ),
  )
    .option(
      '--from-gold',
      "draw controls from the adjudicated or imported gold answers (where a target has none, the dataset's own reference labels): a tenth of the targets unless --count or --share says otherwise",
    )
    .option('--count <n>', 'with --from-gold: how many controls to draw')
    .option('--share <fraction>', "with --from-gold: the share of the dataset's targets to draw, e.g. 0.1")
    .option(
      '--every-target',
      'allow every target to become a control, leaving nothing to label (refused without it)',
    )
    .action(async (f: ControlFlags) => {
      const lines = readLines(f)
      if (lines === undefined && !f.fromGold)
        throw new CliError(
          'give --file <answers.csv>, --line <item,variant,unit,verdict> or --from-gold',
          EXIT.usage,
        )
      const sample = sampleOf(f)
      await withSession(f.workspace, undefined, async (s) => {
        const datasetId = await s.datasetId(f.dataset)
        const r = await s
          .call('projects.setControls', {
            datasetId,
            allGold: Boolean(f.fromGold),
            ...(sample ? { sample } : {}),
            everyTarget: Boolean(f.everyTarget),
            ...(lines !== undefined ? { lines } : {}),
          })
          .catch((e: unknown) => {
            // The refusal names the confirmation; on the command line that is a flag.
            if (e instanceof CliError && e.message.includes('leave nothing to label'))
              throw new CliError(`${e.message} Give --every-target to do it anyway.`, e.exitCode)
            throw e
          })
        const skipped =
          r.skipped > 0
            ? `${countOf(r.skipped, 'target')} skipped: the dataset's sources disagree on ${r.skipped === 1 ? 'it' : 'them'}`
            : ''
        if (f.fromGold && lines === undefined && r.controls === 0)
          throw new CliError(
            `No target has adjudicated or imported gold or a reference label yet${skipped ? ` (${skipped})` : ''}: decide disputes (factlab adjudicate) or give known answers with --file. Majority votes are not used: a control must not come from the people it checks`,
          )
        const warning = sample && 'count' in sample ? countWarning(r, f.dataset) : undefined
        printResult(Boolean(f.json), r, () =>
          [markedLine(r), toLabelLine(r), ...(warning ? [warning] : [])].join('\n'),
        )
      })
    })

  withDataset(
    controls
      .command('list')
      .description('The controls of a dataset, one item,variant,unit,verdict line each'),
  ).action(async (f: ControlFlags) => {
    await withSession(f.workspace, undefined, async (s) => {
      const datasetId = await s.datasetId(f.dataset)
      await s.call('projects.controls', { datasetId })
      const list = namedControls(s.db, datasetId)
      printResult(Boolean(f.json), list, () =>
        list.length === 0
          ? `Dataset ${f.dataset} has no control items`
          : ['item,variant,unit,verdict', ...list.map(lineOf)].join('\n'),
      )
    })
  })

  linesOptions(
    withDataset(
      controls
        .command('clear')
        .description(
          'Unmark controls: every one (--all) or those the lines name (--file, --line); labels stay',
        ),
    ),
  )
    .option('--all', 'unmark every control of the dataset')
    .action(async (f: ControlFlags) => {
      const lines = readLines(f)
      if ((lines === undefined) === !f.all)
        throw new CliError(
          'give --all, or the controls to clear with --file or --line (not both)',
          EXIT.usage,
        )
      await withSession(f.workspace, undefined, async (s) => {
        const datasetId = await s.datasetId(f.dataset)
        const targetIds =
          lines === undefined
            ? (await s.call('projects.controls', { datasetId })).map((c) => c.targetId)
            : targetsOfLines(s, datasetId, lines)
        const before = (await s.call('projects.controls', { datasetId })).length
        const r = await s.call('projects.clearControls', { datasetId, targetIds })
        const cleared = before - r.controls
        printResult(
          Boolean(f.json),
          { cleared, controls: r.controls },
          () => `${countOf(cleared, 'control')} cleared; ${r.controls} left`,
        )
      })
    })
}
