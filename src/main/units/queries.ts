import type { UnitEntry, UnitsPage, UnitVersion } from '../../shared/contract/units'
import type { Viewer } from '../../shared/contract/viewer'
import { blindSql } from '../blind'
import { hiddenLabelsOnUnit, labelsOnUnit } from '../labels/reads'
import { targetHasHumanWork, unitLabelCount } from '../labels/sql'
import type { Db } from '../store/connection'
import { datasetVisible } from '../store/repos/datasets'
import { targetHasVerdict, unitVerdictCount } from '../verdicts/sql'
import { UNIT_ORDER } from './numbering'
import { toUnit, type UnitRow, UnitsError } from './rows'

type EntryRow = UnitRow & { labels: number; verdicts: number; locked: number; versions: number }

// One query per item: an item has tens of units, so the correlated counts stay cheap.
const ENTRY_SQL = `
  SELECT u.*,
    ${unitLabelCount('u.id')} AS labels,
    ${unitVerdictCount('u.id')} AS verdicts,
    EXISTS (SELECT 1 FROM targets t WHERE t.unit_id = u.id AND (
      ${targetHasHumanWork('t.id')} OR ${targetHasVerdict('t.id')})) AS locked,
    (SELECT COUNT(*) FROM units w WHERE w.lineage_id = u.lineage_id) AS versions
  FROM units u
  LEFT JOIN candidates c ON c.id = u.candidate_id
  WHERE u.item_id = ? AND u.superseded_by IS NULL AND (CASE WHEN ? THEN u.deleted_at IS NOT NULL ELSE u.deleted_at IS NULL END)
  ORDER BY ${UNIT_ORDER}`

function toEntry(r: EntryRow): UnitEntry {
  return {
    ...toUnit(r),
    labels: r.labels,
    verdicts: r.verdicts,
    locked: r.locked === 1,
    versions: r.versions,
  }
}

interface ItemRow {
  id: number
  ext_id: string
  position: number
  question: string | null
  reference: string
}

/** One item of a dataset with everything the units review needs, plus its neighbours. */
export function unitsPage(db: Db, datasetId: number, sel: { itemId?: number; index?: number }): UnitsPage {
  if (!datasetVisible(db, datasetId)) throw new UnitsError('not_found', `No dataset with id ${datasetId}`)
  const total = (
    db.prepare('SELECT COUNT(*) AS n FROM items WHERE dataset_id = ?').get(datasetId) as { n: number }
  ).n
  let item: ItemRow | undefined
  if (sel.itemId !== undefined) {
    item = db.prepare('SELECT * FROM items WHERE id = ? AND dataset_id = ?').get(sel.itemId, datasetId) as
      | ItemRow
      | undefined
    if (!item) throw new UnitsError('not_found', `Item ${sel.itemId} is not in dataset ${datasetId}`)
  } else {
    const index = Math.min(sel.index ?? 0, Math.max(total - 1, 0))
    item = db
      .prepare('SELECT * FROM items WHERE dataset_id = ? ORDER BY position, id LIMIT 1 OFFSET ?')
      .get(datasetId, index) as ItemRow | undefined
  }
  if (!item)
    return {
      total,
      index: 0,
      prevItemId: null,
      nextItemId: null,
      item: null,
      candidates: [],
      units: [],
      deleted: [],
    }
  const index = (
    db
      .prepare('SELECT COUNT(*) AS n FROM items WHERE dataset_id = ? AND (position, id) < (?, ?)')
      .get(datasetId, item.position, item.id) as { n: number }
  ).n
  const neighbour = (cmp: '<' | '>', dir: 'DESC' | 'ASC') =>
    (
      db
        .prepare(
          `SELECT id FROM items WHERE dataset_id = ? AND (position, id) ${cmp} (?, ?) ORDER BY position ${dir}, id ${dir} LIMIT 1`,
        )
        .get(datasetId, item.position, item.id) as { id: number } | undefined
    )?.id ?? null
  const candidates = db
    .prepare('SELECT id, variant, text FROM candidates WHERE item_id = ? ORDER BY id')
    .all(item.id) as { id: number; variant: string; text: string }[]
  const entries = db.prepare(ENTRY_SQL)
  return {
    total,
    index,
    prevItemId: neighbour('<', 'DESC'),
    nextItemId: neighbour('>', 'ASC'),
    item: { id: item.id, extId: item.ext_id, question: item.question, reference: item.reference },
    candidates,
    units: (entries.all(item.id, 0) as EntryRow[]).map(toEntry),
    deleted: (entries.all(item.id, 1) as EntryRow[]).map(toEntry),
  }
}

/** Every version of a unit, oldest first, each with the labels that were given on its text. */
export function unitVersions(db: Db, lineageId: number, viewer?: Viewer): UnitVersion[] {
  const rows = db
    .prepare('SELECT * FROM units WHERE lineage_id = ? ORDER BY version, id')
    .all(lineageId) as UnitRow[]
  if (rows.length === 0) throw new UnitsError('not_found', `No unit lineage ${lineageId}`)
  // While blind, another annotator's label shows only on a target the viewer labelled too.
  const datasetId = (
    db.prepare('SELECT dataset_id AS id FROM items WHERE id = ?').get(rows[0]!.item_id) as { id: number }
  ).id
  const seen = blindSql(db, datasetId, viewer, 't.id')
  const visible = seen ? { condition: seen, viewerId: viewer?.annotatorId ?? -1 } : undefined
  const labels = labelsOnUnit(db, visible)
  const hidden = visible ? hiddenLabelsOnUnit(db, visible) : () => 0
  const verdicts = db.prepare(`SELECT ${unitVerdictCount('?')} AS n`)
  return rows.map((r) => ({
    unit: toUnit(r),
    labels: labels(r.id),
    hiddenLabels: hidden(r.id),
    verdicts: (verdicts.get(r.id) as { n: number }).n,
  }))
}
