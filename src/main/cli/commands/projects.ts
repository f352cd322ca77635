import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { exportPackage } from '../../projects/packageExport'
import { openPackage } from '../../projects/packageOpen'
import { setPlan } from '../../projects/plan'
import { CliError, cliProgress, EXIT, printResult } from '../util'
import { withSession, withWorkspace } from './session'

interface AssignFlags {
  workspace?: string
  dataset?: string
  k?: string
  policy?: string
  seed?: string
  annotators?: string
  controlRate?: string
  hourlyRate?: string
  json?: boolean
}

interface PackageFlags {
  workspace?: string
  dataset?: string
  annotator?: string
  out?: string
  open?: string
  json?: boolean
}

const number = (name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (!Number.isFinite(n)) throw new CliError(`${name} must be a number, got "${raw}"`, EXIT.usage)
  return n
}

/** "ana:30,ben" → names with optional hourly rates. */
function annotatorList(raw: string | undefined) {
  if (!raw) return []
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [name = '', rate] = s.split(':')
      return { name: name.trim(), hourlyRate: number(`rate of ${name}`, rate) ?? null }
    })
}

/** Registers `assign` (a dataset's plan) and `package` (work packages out and in) on the CLI. */
export function registerProjectCommands(program: Command): void {
  program
    .command('assign')
    .description(
      'Set a dataset’s annotation plan: overlap k, open or fixed assignment (items split among --annotators from --seed), control rate, hourly rates',
    )
    .option('--workspace <db>', 'workspace file')
    .requiredOption('--dataset <name>', 'dataset')
    .option('--k <n>', 'distinct annotators wanted per target', '1')
    .option(
      '--policy <open|fixed>',
      'open: next target that needs labels; fixed: items split by name',
      'open',
    )
    .option('--seed <n>', 'seed of the fixed split', '1')
    .option('--annotators <list>', 'names, comma separated; name:rate gives an hourly rate')
    .option('--control-rate <0..1>', 'share of the queue that is control items', '0')
    .option('--hourly-rate <money>', 'hourly rate for annotators without their own')
    .option('--json', 'print the plan as JSON')
    .action(async (flags: AssignFlags) => {
      const policy = flags.policy === 'fixed' ? 'fixed' : flags.policy === 'open' ? 'open' : null
      if (!policy) throw new CliError(`--policy is open or fixed, not "${flags.policy}"`, EXIT.usage)
      const plan = await withWorkspace(flags.workspace, async (ws, session) => {
        const datasetId = await session.datasetId(flags.dataset!)
        const bar = cliProgress('assign', undefined, flags.json)
        try {
          return setPlan(
            ws.db,
            {
              datasetId,
              k: number('--k', flags.k),
              policy,
              seed: number('--seed', flags.seed),
              controlRate: number('--control-rate', flags.controlRate),
              hourlyRate: number('--hourly-rate', flags.hourlyRate) ?? null,
              annotators: annotatorList(flags.annotators),
            },
            (done, total) => bar.update(done, total),
          )
        } catch (e) {
          throw new CliError(e instanceof Error ? e.message : String(e))
        } finally {
          bar.stop()
        }
      })
      printResult(
        flags.json ?? false,
        plan,
        () =>
          `Plan for dataset ${flags.dataset}: k = ${plan.k}, ${plan.policy} assignment` +
          (plan.policy === 'fixed' ? ` (seed ${plan.seed})` : '') +
          (plan.annotators.length ? `, annotators ${plan.annotators.map((a) => a.name).join(', ')}` : '') +
          (plan.controlRate > 0 ? `, ${Math.round(plan.controlRate * 100)}% controls` : ''),
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
        const report = await withWorkspace(flags.workspace, (ws) => {
          const bar = cliProgress('open package', undefined, flags.json)
          try {
            return openPackage(ws, flags.open!, (done, total) => bar.update(done, total))
          } catch (e) {
            throw new CliError(e instanceof Error ? e.message : String(e))
          } finally {
            bar.stop()
          }
        })
        return printResult(flags.json ?? false, report, () =>
          report.alreadyOpen
            ? `Package ${report.id} is already open here (dataset "${report.dataset}"): nothing changed`
            : `Opened ${report.annotator}'s package: dataset "${report.dataset}" with ${report.items} items`,
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
          `Wrote ${report.annotator}'s package to ${report.file}: ${report.assignedItems} of ${report.items} items assigned, ${report.targets} targets`,
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
    .option('--json', 'print JSON')
    .action(async (flags: { workspace?: string; dataset: string; file?: string; json?: boolean }) => {
      const body = flags.file === undefined ? undefined : readText(flags.file)
      const out = await withSession(flags.workspace, undefined, async (s) => {
        const datasetId = await s.datasetId(flags.dataset)
        if (body !== undefined) await s.call('projects.saveGuidelines', { datasetId, body })
        return s.call('projects.guidelines', { datasetId })
      })
      printResult(flags.json ?? false, out, () =>
        out.current === null
          ? `Dataset ${flags.dataset} has no guidelines yet`
          : `Guidelines version ${out.current.version} (${out.history.length} earlier)\n\n${out.current.body}`,
      )
    })
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (e) {
    throw new CliError(`Cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`)
  }
}
