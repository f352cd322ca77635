import type { PackageRefresh } from '../../shared/packageRefresh'
import { ServiceError } from '../app/errors'
import type { Workspace } from '../app/workspace'
import { datasetContentHash } from '../export/contentHash'
import { takeGuidelinesRead } from '../guidelines/guidelines'
import type { Db } from '../store/connection'
import { now } from '../store/repos/rows'
import { deleteUnit, editUnit } from '../units/edit'
import { markPackageControls } from './packageControls'
import type { PackageHeader, PackageItem } from './packageFormat'
import { insertPackageCandidates, insertPackageItem } from './packageItems'
import type { PackageOwner } from './packageOwner'

/**
 * A newer package of the same lineage reaching a laptop that holds the older one: the lead edited
 * units, added items or published guidelines since, and the annotator keeps working where she is.
 * The laptop's dataset is brought to the package's content in place, the way the lead's edits
 * happened: a unit she labelled gets a new version and keeps its labels on the wording they were
 * given on; an unlabelled one is reworded; a unit the lead removed is hidden (its labels stay).
 * Nothing she labelled is touched. All in the caller's transaction.
 */

type PackageUnit = PackageItem['units'][number]

interface LaptopUnit {
  id: number
  kind: string
  variant: string | null
  text: string
  position: number
}

const listKey = (kind: string, variant: string | null) => `${kind}\u0000${variant ?? ''}`

export function refreshPackage(
  ws: Workspace,
  header: PackageHeader,
  items: Iterable<PackageItem>,
  datasetId: number,
  owner: PackageOwner,
): PackageRefresh {
  const db = ws.db
  const counts: PackageRefresh = {
    itemsAdded: 0,
    unitsAdded: 0,
    unitsUpdated: 0,
    unitsRemoved: 0,
    guidelinesVersion: null,
  }
  const findItem = db.prepare('SELECT id FROM items WHERE dataset_id = ? AND ext_id = ?')
  const lastPosition = db.prepare('SELECT COALESCE(MAX(position), -1) AS p FROM items WHERE dataset_id = ?')
  const candidatesOf = db.prepare('SELECT id, variant FROM candidates WHERE item_id = ?')
  const unitsOf = db.prepare(
    `SELECT u.id, u.kind, c.variant, u.text, u.position FROM units u LEFT JOIN candidates c ON c.id = u.candidate_id
     WHERE u.item_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL ORDER BY u.position, u.id`,
  )
  const place = db.prepare('UPDATE units SET position = ? WHERE id = ? AND position <> ?')
  for (const item of items) {
    const found = findItem.get(datasetId, item.extId) as { id: number } | undefined
    const itemId =
      found?.id ??
      insertPackageItem(ws, datasetId, item, (lastPosition.get(datasetId) as { p: number }).p + 1)
    if (!found) counts.itemsAdded++
    const candidateIds = new Map(
      (candidatesOf.all(itemId) as { id: number; variant: string }[]).map((c) => [c.variant, c.id]),
    )
    insertPackageCandidates(ws, itemId, item.candidates, candidateIds)
    const laptop = new Map<string, LaptopUnit[]>()
    for (const u of unitsOf.all(itemId) as LaptopUnit[]) {
      const key = listKey(u.kind, u.kind === 'fact' ? null : u.variant)
      laptop.set(key, [...(laptop.get(key) ?? []), u])
    }
    const wanted = new Map<string, PackageUnit[]>()
    for (const u of item.units) {
      const key = listKey(u.kind, u.variant)
      wanted.set(key, [...(wanted.get(key) ?? []), u])
      if (!laptop.has(key)) laptop.set(key, [])
    }
    for (const [key, here] of laptop) {
      const plan = alignUnits(here, wanted.get(key) ?? [])
      for (const { unit, to } of plan.same) place.run(to.position, unit.id, to.position)
      for (const { unit, to } of plan.reworded) {
        const { unit: now } = editUnit(db, unit.id, to.text, to.triplet)
        place.run(to.position, now.id, to.position)
        counts.unitsUpdated++
      }
      for (const to of plan.added) {
        ws.content.insertUnit(itemId, {
          kind: to.kind,
          text: to.text,
          triplet: to.triplet,
          position: to.position,
          candidateId: to.variant === null ? null : (candidateIds.get(to.variant) ?? null),
        })
        counts.unitsAdded++
      }
      for (const unit of plan.removed) {
        deleteUnit(db, unit.id)
        counts.unitsRemoved++
      }
    }
  }
  counts.guidelinesVersion = refreshGuidelines(db, datasetId, header)
  if (header.annotator.guidelinesRead)
    takeGuidelinesRead(db, datasetId, owner.annotatorId, header.annotator.guidelinesRead)
  refreshPlan(db, datasetId, header, owner.annotatorId)
  const hash = datasetContentHash(db, datasetId)
  if (hash !== header.dataset.contentHash)
    throw new ServiceError(
      'bad_input',
      `This package could not bring "${header.dataset.name}" here to the lead's version (content ${hash.slice(0, 12)} against ${header.dataset.contentHash.slice(0, 12)}): an item or answer differs from the lead's. Nothing was changed; ask the lead to check the package`,
    )
  return counts
}

/**
 * How one list of units (an item's facts, or one answer's units of one kind) becomes the
 * package's: units of the same wording stay; a unit the lead reworded is found by a wording it
 * had; what is left is added on the package's side and hidden on the laptop's. Pure.
 */
export function alignUnits<
  L extends { text: string },
  P extends { text: string; was?: string[] | undefined },
>(
  here: readonly L[],
  wanted: readonly P[],
): { same: { unit: L; to: P }[]; reworded: { unit: L; to: P }[]; added: P[]; removed: L[] } {
  const free = new Set(here)
  const take = (test: (u: L) => boolean): L | undefined => {
    for (const u of free)
      if (test(u)) {
        free.delete(u)
        return u
      }
    return undefined
  }
  const same: { unit: L; to: P }[] = []
  const open: P[] = []
  for (const to of wanted) {
    const unit = take((u) => u.text === to.text)
    if (unit) same.push({ unit, to })
    else open.push(to)
  }
  const reworded: { unit: L; to: P }[] = []
  const added: P[] = []
  for (const to of open) {
    const unit = take((u) => to.was?.includes(u.text) ?? false)
    if (unit) reworded.push({ unit, to })
    else added.push(to)
  }
  return { same, reworded, added, removed: [...free] }
}

/** The package's guidelines arrive under the lead's number; returns it when it is new here. */
function refreshGuidelines(db: Db, datasetId: number, header: PackageHeader): number | null {
  if (!header.guidelines) return null
  const inserted = db
    .prepare(
      'INSERT OR IGNORE INTO guidelines (dataset_id, version, body, author, created_at) VALUES (?, ?, ?, ?, ?)',
    )
    .run(datasetId, header.guidelines.version, header.guidelines.body, 'lead (package)', now())
  return inserted.changes > 0 ? header.guidelines.version : null
}

/** The lead's plan, assignment and controls as the newer package carries them. */
function refreshPlan(db: Db, datasetId: number, header: PackageHeader, me: number): void {
  db.prepare(
    `UPDATE dataset_plans SET k = ?, policy = ?, seed = ?, control_rate = ?, updated_at = ? WHERE dataset_id = ?`,
  ).run(
    header.plan.k,
    header.assignment ? 'fixed' : 'open',
    header.plan.seed ?? 1,
    header.controls.length > 0 ? header.plan.controlRate : 0,
    now(),
    datasetId,
  )
  db.prepare('DELETE FROM assignments WHERE annotator_id = ? AND dataset_id = ?').run(me, datasetId)
  if (header.assignment) {
    const add = db.prepare(
      `INSERT OR IGNORE INTO assignments (annotator_id, dataset_id, item_id)
       SELECT ?, ?, id FROM items WHERE dataset_id = ? AND ext_id = ?`,
    )
    for (const ext of header.assignment) add.run(me, datasetId, datasetId, ext)
  }
  markPackageControls(db, datasetId, header.controls)
}
