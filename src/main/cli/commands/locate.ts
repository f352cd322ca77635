import type { Command } from 'commander'
import type { UnitEntry, UnitsPage } from '../../../shared/contract/units'
import { schemaWord } from '../../../shared/labelSchemas'
import { countOf } from '../../../shared/plural'
import { getDataset } from '../../store/repos/datasets'
import { CliError, EXIT } from '../util'
import type { Session } from './session'

/*
 * How a script names what it means: dataset by name, item by its external id, unit by its
 * 1-based number in the item (as `factlab units list` prints it) or by its exact text, and the
 * candidate by variant. Ids stay internal, so a script written against one workspace reads right.
 */

export interface UnitLocator {
  dataset: string
  item: string
  unit?: number
  unitText?: string
}

export interface TargetLocator extends UnitLocator {
  variant?: string
}

export interface LocatedUnit {
  datasetId: number
  page: UnitsPage & { item: NonNullable<UnitsPage['item']> }
  unit: UnitEntry
  /** 1-based number of the unit in the item. */
  number: number
}

export interface LocatedTarget extends LocatedUnit {
  targetId: number
  variant: string
}

const quoted = (xs: string[]) => xs.map((x) => `"${x}"`).join(', ')

/** Names the dataset (however it was given) and shows what its item ids look like. */
function noItem(s: Session, datasetId: number, extId: string): string {
  const name = (s.db.prepare('SELECT name FROM datasets WHERE id = ?').pluck().get(datasetId) as string) ?? ''
  const ids = s.db
    .prepare('SELECT ext_id FROM items WHERE dataset_id = ? ORDER BY position LIMIT 4')
    .pluck()
    .all(datasetId) as string[]
  const some =
    ids.length === 0
      ? '; it has no items'
      : `; its items have ids such as ${quoted(ids.slice(0, 3))}${ids.length > 3 ? ', …' : ''}`
  return `Dataset "${name}" (#${datasetId}) has no item with id "${extId}"${some}`
}

/**
 * The candidate a script names by variant: its exact name, or the name as the app shows it with
 * spaces for underscores ("falcon 40B instruct"), when only one variant reads so.
 */
export function findVariant<C extends { variant: string }>(
  candidates: readonly C[],
  name: string,
): C | undefined {
  const exact = candidates.find((c) => c.variant === name)
  if (exact) return exact
  const loose = (v: string) =>
    v
      .trim()
      .replace(/[\s_]+/g, ' ')
      .toLowerCase()
  const matches = candidates.filter((c) => loose(c.variant) === loose(name))
  return matches.length === 1 ? matches[0] : undefined
}

export async function itemPage(
  s: Session,
  dataset: string,
  extId: string,
): Promise<{ datasetId: number; page: LocatedUnit['page'] }> {
  const datasetId = await s.datasetId(dataset)
  const row = s.db
    .prepare('SELECT id FROM items WHERE dataset_id = ? AND ext_id = ?')
    .get(datasetId, extId) as { id: number } | undefined
  if (!row) throw new CliError(noItem(s, datasetId, extId))
  const page = await s.call('units.list', { datasetId, itemId: row.id })
  if (!page.item) throw new CliError(noItem(s, datasetId, extId))
  return { datasetId, page: { ...page, item: page.item } }
}

export async function locateUnit(s: Session, loc: UnitLocator, variant?: string): Promise<LocatedUnit> {
  const { datasetId, page } = await itemPage(s, loc.dataset, loc.item)
  const where = `item "${loc.item}"`
  if (loc.unit !== undefined) {
    const unit = page.units[loc.unit - 1]
    if (!unit)
      throw new CliError(`${where} has ${countOf(page.units.length, 'unit')}; there is no unit ${loc.unit}`)
    return { datasetId, page, unit, number: loc.unit }
  }
  const text = (loc.unitText ?? '').trim()
  const candidateId = variant === undefined ? undefined : findVariant(page.candidates, variant)?.id
  const matches = page.units
    .map((unit, i) => ({ unit, number: i + 1 }))
    .filter(({ unit }) => unit.text.trim() === text)
    .filter(
      ({ unit }) =>
        candidateId === undefined || unit.candidateId === null || unit.candidateId === candidateId,
    )
  if (matches.length === 1) return { datasetId, page, ...matches[0]! }
  if (matches.length === 0) throw new CliError(`${where} has no current unit whose text is "${text}"`)
  throw new CliError(
    `${where} has ${matches.length} units with that text (numbers ${matches.map((m) => m.number).join(', ')}); name one with --unit`,
  )
}

/** A (unit, candidate) pair: facts need the variant; other units belong to their own candidate. */
export async function locateTarget(s: Session, loc: TargetLocator): Promise<LocatedTarget> {
  const found = await locateUnit(s, loc, loc.variant)
  const { page, unit, number } = found
  const variants = page.candidates.map((c) => c.variant)
  const own = page.candidates.find((c) => c.id === unit.candidateId)
  let variant = loc.variant
  if (variant === undefined) {
    if (own) variant = own.variant
    else if (variants.length === 1) variant = variants[0]!
    else
      throw new CliError(
        `unit ${number} of item "${loc.item}" is a ${unit.kind} judged against each candidate: give --variant (${quoted(variants)})`,
        EXIT.usage,
      )
  }
  const candidate = findVariant(page.candidates, variant)
  if (!candidate)
    throw new CliError(`item "${loc.item}" has no variant "${variant}" (it has ${quoted(variants)})`)
  variant = candidate.variant
  const targetId = s.ctx.workspace.content.targetId(unit.id, candidate.id)
  if (targetId === null)
    throw new CliError(
      `unit ${number} of item "${loc.item}" belongs to variant "${own?.variant ?? '?'}", not "${variant}"`,
    )
  return { ...found, targetId, variant }
}

/** "Neutral" as typed is the schema's "neutral": one word matches it, so there is no guess. */
export const verdictFor = (s: Session, t: LocatedTarget, typed: string): string =>
  schemaWord(getDataset(s.db, t.datasetId).labelSchema, typed)

/** The locator flags `label` and `adjudicate` share. */
export function withTargetOptions(cmd: Command): Command {
  return cmd
    .option('--workspace <db>', 'workspace file')
    .option('--dataset <name>', 'dataset name')
    .option('--item <extId>', "the item's id as imported")
    .option('--variant <name>', 'candidate variant (facts are judged against each one)')
    .option('--unit <n>', 'unit number in the item, as `factlab units list` shows it')
    .option('--unit-text <text>', 'the unit by its exact text instead of its number')
    .option('--json', 'print JSON')
}

export interface TargetFlags {
  workspace?: string
  dataset?: string
  item?: string
  variant?: string
  unit?: string
  unitText?: string
  json?: boolean
}

export function targetLocatorFromFlags(f: TargetFlags): TargetLocator {
  if (!f.dataset) throw new CliError('--dataset <name> is required', EXIT.usage)
  if (!f.item) throw new CliError('--item <extId> is required', EXIT.usage)
  if ((f.unit === undefined) === (f.unitText === undefined))
    throw new CliError('give exactly one of --unit <n> and --unit-text <text>', EXIT.usage)
  const unit = f.unit === undefined ? undefined : Number(f.unit)
  if (unit !== undefined && (!Number.isInteger(unit) || unit < 1))
    throw new CliError(`--unit must be a unit number (1, 2, …), got "${f.unit}"`, EXIT.usage)
  return {
    dataset: f.dataset,
    item: f.item,
    ...(f.variant !== undefined ? { variant: f.variant } : {}),
    ...(unit !== undefined ? { unit } : {}),
    ...(f.unitText !== undefined ? { unitText: f.unitText } : {}),
  }
}
