import { readFileSync } from 'node:fs'
import { userInfo } from 'node:os'
import type { Command } from 'commander'
import { describeRefresh } from '../../../shared/packageRefresh'
import { countOf } from '../../../shared/plural'
import { ServiceError } from '../../app/errors'
import { exportPackage } from '../../projects/packageExport'
import { openPackage } from '../../projects/packageOpen'
import { type NameChanges, planNameChanges, setPlan } from '../../projects/plan'
import { pickDataset } from '../datasetKey'
import { CliError, cliProgress, EXIT, printResult } from '../util'
import { describePlan, type PlanFlags, planFromFlags } from './planFlags'
import { withSession, withWorkspace } from './session'

interface AssignFlags extends PlanFlags {
  workspace?: string
  dataset?: string
  /** Names the lead confirms dropping from the plan although they were handed a package. */
  drop?: string
  json?: boolean
}

const quotedNames = (xs: readonly string[]) => xs.map((n) => `"${n}"`).join(', ')

const names = (raw: string | undefined) =>
  new Set(
    (raw ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
  )

/**
 * Refuses a plan that stops naming someone who was handed a package of the dataset, unless
 * `--drop` names them: a fixed split is redrawn without them, so the items their package holds
 * go to others while their labels may still be coming back.
 */
function refuseDroppingPackaged(changes: NameChanges, policy: string, dataset: string, drop: Set<string>) {
  const unconfirmed = changes.droppedWithPackage.filter((d) => !drop.has(d.name))
  if (unconfirmed.length === 0) return
  const who = unconfirmed
    .map(
      (d) =>
        `${d.name} (${countOf(d.packages, 'package')} of "${dataset}", ${d.back === d.packages ? 'back' : d.back === 0 ? 'not back yet' : `${d.back} back`})`,
    )
    .join(', ')
  const list = unconfirmed.map((d) => d.name).join(',')
  const added = changes.added.length
    ? ` (${quotedNames(changes.added)} ${changes.added.length === 1 ? 'is' : 'are'} not in this workspace: a misspelling?)`
    : ''
  throw new CliError(
    `--annotators leaves out ${who}${added}. ` +
      (policy === 'fixed'
        ? 'The fixed split would be redrawn without them, and the items their package holds would go to others. '
        : 'Their rate and their place in the plan would go. ') +
      `Keep them in --annotators, or confirm with --drop ${list}; the plan was not changed`,
  )
}

interface PackageFlags {
  workspace?: string
  dataset?: string
  annotator?: string
  out?: string
  open?: string
  json?: boolean
}

/** Registers `assign` (a dataset's plan) and `package` (work packages out and in) on the CLI. */
export function registerProjectCommands(program: Command): void {
  program
    .command('assign')
    .description(
      'Show or change a dataset’s annotation plan: overlap k, open or fixed assignment (items split among --annotators from --seed), control rate, hourly rates. ' +
        'Flags left out keep the plan’s values; with none, the plan is shown',
    )
    .option('--workspace <db>', 'workspace file')
    .requiredOption('--dataset <name>', 'dataset')
    .option('--k <n>', 'distinct annotators wanted per target (a new plan: 1)')
    .option(
      '--policy <open|fixed>',
      'open: next target that needs labels; fixed: items split by name (a new plan: open)',
    )
    .option('--seed <n>', 'seed of the fixed split (a new plan: 1)')
    .option(
      '--annotators <list>',
      'names, comma separated; name:rate gives an hourly rate, name:none clears it, a name alone keeps its rate; "" names nobody',
    )
    .option('--control-rate <0..1>', 'share of the queue that is control items (a new plan: 0)')
    .option('--hourly-rate <money>', 'hourly rate for annotators without their own (none clears it)')
    .option(
      '--drop <names>',
      'confirm leaving these people out of --annotators although they were handed a package (comma separated)',
    )
    .option('--json', 'print the plan as JSON')
    .action(async (flags: AssignFlags) => {
      const { plan, dataset, added } = await withWorkspace(flags.workspace, async (ws, session) => {
        const datasets = await session.call('datasets.names', {})
        const datasetId = pickDataset(datasets, flags.dataset!)
        // Named as the app names it, also when --dataset gave its number.
        const dataset = datasets.find((d) => d.id === datasetId)?.name ?? flags.dataset!
        const current = await session.call('projects.plan', { datasetId })
        const wanted = planFromFlags(flags, current)
        if (!wanted) return { plan: current, dataset, added: [] }
        const changes = planNameChanges(
          ws.db,
          datasetId,
          (wanted.annotators ?? []).map((a) => a.name),
        )
        refuseDroppingPackaged(changes, wanted.policy ?? current.policy, dataset, names(flags.drop))
        const bar = cliProgress('assign', undefined, flags.json)
        try {
          // Called directly rather than through dispatch for the progress of a large fixed split.
          const plan = setPlan(ws.db, wanted, (done, total) => bar.update(done, total))
          return { plan, dataset, added: changes.added }
        } catch (e) {
          // A refusal of the plan itself (k beyond the people named): bad input, said as it is.
          if (e instanceof ServiceError) throw new CliError(e.message, EXIT.badInput)
          throw e
        } finally {
          bar.stop()
        }
      })
      // A name the workspace did not know became a person: said, so a typo ("benn") is seen at once.
      printResult(flags.json ?? false, flags.json ? { ...plan, added } : plan, () =>
        describePlan(dataset, plan, added),
      )
    })

  program
    .command('package')
    .description(
      'Write one annotator’s work package (--dataset, --annotator, --out), or open one in this workspace (--open <file>)',
    )
    .option('--workspace <db>', 'workspace file')
    .option('--dataset <name>', 'dataset to package')
    .option('--annotator <name>', 'who the package is for')
    .option('--out <file>', 'package file to write')
    .option('--open <file>', 'open a package in this (fresh) workspace instead')
    .option('--json', 'print the report as JSON')
    .action(async (flags: PackageFlags) => {
      if (flags.open) {
        const report = await withWorkspace(
          flags.workspace,
          (ws) => {
            const bar = cliProgress('open package', undefined, flags.json)
            try {
              return openPackage(ws, flags.open!, (done, total) => bar.update(done, total))
            } catch (e) {
              throw new CliError(e instanceof Error ? e.message : String(e))
            } finally {
              bar.stop()
            }
          },
          'mayCreate',
        )
        return printResult(flags.json ?? false, report, () =>
          report.alreadyOpen
            ? `Package ${report.id} is already open here (dataset "${report.dataset}"): nothing changed`
            : report.refreshed
              ? `Updated "${report.dataset}" from ${report.annotator}'s newer package: ${describeRefresh(report.refreshed)}. Every label ${report.annotator} made is kept`
              : `Opened ${report.annotator}'s package: dataset "${report.dataset}" with ${countOf(report.items, 'item')}`,
        )
      }
      if (!flags.dataset || !flags.annotator || !flags.out)
        throw new CliError('package needs --dataset, --annotator and --out (or --open <file>)', EXIT.usage)
      const report = await withWorkspace(flags.workspace, async (ws, session) => {
        const datasetId = await session.datasetId(flags.dataset!)
        const bar = cliProgress('package', undefined, flags.json)
        try {
          return exportPackage(ws, {
            datasetId,
            annotator: flags.annotator!,
            out: flags.out!,
            onProgress: (done, total) => bar.update(done, total),
          })
        } catch (e) {
          throw new CliError(e instanceof Error ? e.message : String(e))
        } finally {
          bar.stop()
        }
      })
      printResult(
        flags.json ?? false,
        report,
        () =>
          `Wrote ${report.annotator}'s package to ${report.file}: ${report.assignedItems} of ${countOf(report.items, 'item')} assigned, ${countOf(report.targets, 'target')}`,
      )
    })

  program
    .command('guidelines')
    .description(
      'Show a dataset’s guidelines, or save a Markdown file as their new version (--file); scripts and active HTML are refused',
    )
    .option('--workspace <db>', 'workspace file')
    .requiredOption('--dataset <name>', 'dataset')
    .option('--file <markdown>', 'save this file as the next version')
    .option('--as <name>', 'who wrote this version (recorded as its author; by default your login name)')
    .option('--json', 'print JSON')
    .action(
      async (flags: { workspace?: string; dataset: string; file?: string; as?: string; json?: boolean }) => {
        const body = flags.file === undefined ? undefined : readText(flags.file)
        if (flags.as !== undefined && flags.file === undefined)
          throw new CliError('--as names the author of a version saved with --file', EXIT.usage)
        const author = flags.as?.trim() || loginName()
        const out = await withSession(flags.workspace, undefined, async (s) => {
          const datasetId = await s.datasetId(flags.dataset)
          if (body !== undefined)
            await s.call('projects.saveGuidelines', { datasetId, body, ...(author ? { author } : {}) })
          return s.call('projects.guidelines', { datasetId })
        })
        printResult(flags.json ?? false, out, () =>
          out.current === null
            ? `Dataset ${flags.dataset} has no guidelines yet`
            : `Guidelines version ${out.current.version}${out.current.author ? ` by ${out.current.author}` : ''} (${out.history.length === 0 ? 'the first' : `${countOf(out.history.length, 'earlier version')} kept`})\n\n${out.current.body}`,
        )
      },
    )
}

/** The person at the keyboard, as the system names them; none when it cannot say. */
function loginName(): string | undefined {
  try {
    return userInfo().username || undefined
  } catch {
    return undefined
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (e) {
    throw new CliError(`Cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`)
  }
}
