import { Triplet, Unit } from '../../shared/domain'
import { targetHasHumanWork } from '../labels/sql'
import type { Db } from '../store/connection'
import { datasetVisible } from '../store/repos/datasets'
import { parseJson } from '../store/repos/rows'
import { targetHasVerdict } from '../verdicts/sql'

/** A refusal of the units service; the code tells the RPC layer how to report it. */
export class UnitsError extends Error {
  override name = 'UnitsError'
  constructor(
    readonly code: 'bad_input' | 'not_found' | 'conflict',
    message: string,
  ) {
    super(message)
  }
}

export interface UnitRow {
  id: number
  item_id: number
  candidate_id: number | null
  kind: string
  position: number
  text: string
  triplet: string | null
  origin: string
  version: number
  lineage_id: number | null
  superseded_by: number | null
  deleted_at: string | null
}

export function toUnit(row: UnitRow): Unit {
  return Unit.parse({
    id: row.id,
    itemId: row.item_id,
    candidateId: row.candidate_id,
    kind: row.kind,
    position: row.position,
    text: row.text,
    triplet: row.triplet === null ? null : parseJson(Triplet, row.triplet, 'units.triplet'),
    origin: row.origin,
    version: row.version,
    lineageId: row.lineage_id ?? row.id,
    supersededBy: row.superseded_by,
    deletedAt: row.deleted_at,
  })
}

/** A unit of a dataset still being imported does not exist yet for anyone but the importer. */
export function unitRow(db: Db, unitId: number): UnitRow {
  const row = db.prepare('SELECT * FROM units WHERE id = ?').get(unitId) as UnitRow | undefined
  const item =
    row &&
    (db.prepare('SELECT dataset_id FROM items WHERE id = ?').get(row.item_id) as { dataset_id: number })
  if (!row || !item || !datasetVisible(db, item.dataset_id))
    throw new UnitsError('not_found', `No unit with id ${unitId}`)
  return row
}

/** The unit as it is now; a superseded or deleted row cannot be changed any more. */
export function currentUnitRow(db: Db, unitId: number): UnitRow {
  const row = unitRow(db, unitId)
  if (row.superseded_by !== null)
    throw new UnitsError(
      'conflict',
      `Unit ${unitId} has been replaced by a newer version (unit ${row.superseded_by}); change that one instead`,
    )
  if (row.deleted_at !== null) throw new UnitsError('conflict', `Unit ${unitId} was deleted`)
  return row
}

/**
 * Whether anything already refers to this unit's text: a label (even one later cleared, since
 * its history still does), a judge verdict or a gold decision. Such a unit is never rewritten.
 */
export function unitIsLabelled(db: Db, unitId: number): boolean {
  const row = db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM targets t WHERE t.unit_id = ? AND (
         ${targetHasHumanWork('t.id')} OR ${targetHasVerdict('t.id')})) AS used`,
    )
    .get(unitId) as { used: number }
  return row.used === 1
}

export function cleanText(text: string, what = 'A unit'): string {
  const t = text.trim()
  if (!t) throw new UnitsError('bad_input', `${what} cannot be empty`)
  return t
}
