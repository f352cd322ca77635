import type { Command } from 'commander'
import type { UnitEntry } from '../../../shared/contract/units'
import { countOf } from '../../../shared/plural'
import { CliError, EXIT, printResult } from '../util'
import { itemPage, locateUnit, type TargetFlags, targetLocatorFromFlags } from './locate'
import { withSession } from './session'

interface UnitFlags extends TargetFlags {
  text?: string
  triplet?: string[]
}

function unitsCommand(program: Command): Command {
  // `units generate` registers the group; this file adds the review commands beside it.
  const existing = program.commands.find((c) => c.name() === 'units')
  return existing ?? program.command('units').description('Review and edit units')
}

function unitOptions(cmd: Command): Command {
  return cmd
    .option('--workspace <db>', 'workspace file')
    .option('--dataset <name>', 'dataset name')
    .option('--item <extId>', "the item's id as imported")
    .option('--unit <n>', 'unit number in the item, as `units list` shows it')
    .option('--unit-text <text>', 'the unit by its exact text instead of its number')
    .option('--json', 'print JSON')
}

/** `units list`, `units edit` and `units delete`: the Units view's review steps from a script. */
export function registerUnitsEditCommands(program: Command): void {
  const units = unitsCommand(program)

  units
    .command('list')
    .description('The current units of one item, numbered as the other commands name them')
    .option('--workspace <db>', 'workspace file')
    .requiredOption('--dataset <name>', 'dataset name')
    .requiredOption('--item <extId>', "the item's id as imported")
    .option('--json', 'print JSON')
    .action(async (f: { workspace?: string; dataset: string; item: string; json?: boolean }) => {
      await withSession(f.workspace, undefined, async (s) => {
        const { page } = await itemPage(s, f.dataset, f.item)
        const variantOf = (u: UnitEntry) =>
          page.candidates.find((c) => c.id === u.candidateId)?.variant ?? null
        const rows = page.units.map((u, i) => ({ number: i + 1, variant: variantOf(u), ...u }))
        printResult(Boolean(f.json), { item: page.item, candidates: page.candidates, units: rows }, () =>
          rows.length === 0
            ? `Item "${f.item}" has no units yet`
            : rows
                .map(
                  (r) =>
                    `${String(r.number).padStart(3)}  ${r.kind}${r.variant ? ` (${r.variant})` : ''}  v${r.version}  ${countOf(r.labels, 'label')}  ${r.text}`,
                )
                .join('\n'),
        )
      })
    })

  unitOptions(
    units
      .command('edit')
      .description(
        'Change a unit’s text; a labelled unit gets a new version and its labels stay on the old one',
      ),
  )
    .option('--text <text>', 'the new text')
    .option('--triplet <parts...>', 'for a triplet: subject predicate object')
    .action(async (f: UnitFlags) => {
      if ((f.text === undefined) === (f.triplet === undefined))
        throw new CliError('give --text <text> or --triplet <subject> <predicate> <object>', EXIT.usage)
      if (f.triplet && f.triplet.length !== 3)
        throw new CliError(
          `--triplet takes three parts (subject predicate object), got ${f.triplet.length}`,
          EXIT.usage,
        )
      const loc = targetLocatorFromFlags(f)
      await withSession(f.workspace, undefined, async (s) => {
        const { unit, number } = await locateUnit(s, loc)
        const r = await s.call('units.edit', {
          unitId: unit.id,
          ...(f.text !== undefined ? { text: f.text } : {}),
          ...(f.triplet ? { triplet: f.triplet as [string, string, string] } : {}),
        })
        // The service writes nothing when the cleaned text (and triplet) is what the unit has.
        const changed =
          r.versioned ||
          r.unit.text !== unit.text ||
          JSON.stringify(r.unit.triplet) !== JSON.stringify(unit.triplet)
        printResult(Boolean(f.json), { ...r, changed, number }, () =>
          !changed
            ? `Unit ${number} unchanged: it already reads "${unit.text}"`
            : r.versioned
              ? `Unit ${number} now at version ${r.unit.version}; ${countOf(unit.labels, 'label')} stay on version ${unit.version}`
              : `Unit ${number} changed`,
        )
      })
    })

  unitOptions(
    units
      .command('delete')
      .description('Delete a unit (restorable in the app or with `call units.restore`; labels are kept)'),
  ).action(async (f: UnitFlags) => {
    const loc = targetLocatorFromFlags(f)
    await withSession(f.workspace, undefined, async (s) => {
      const { unit, number } = await locateUnit(s, loc)
      const deleted = await s.call('units.delete', { unitId: unit.id })
      printResult(Boolean(f.json), { unit: deleted, number }, () => `Deleted unit ${number}: ${deleted.text}`)
    })
  })
}
