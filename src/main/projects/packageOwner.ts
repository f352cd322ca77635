import { ServiceError } from '../app/errors'
import type { Db } from '../store/connection'

/**
 * Whose labels a laptop's dataset holds. A workspace opened from a work package belongs to the
 * package's annotator: the lead merges its bundle only as that person's (packageReturn.ts), so a
 * label saved here under another name could never go back. Refusing it when it is given, rather
 * than at the merge, tells the person while they can still fix the name.
 */

export interface PackageOwner {
  id: string
  annotatorId: number
  annotator: string
}

// `annotate.save` asks on every label: the statement is prepared once per connection.
const statements = new WeakMap<Db, ReturnType<Db['prepare']>>()

/** The package a dataset was opened from, and its annotator; null in a lead's (or any other) workspace. */
export function openedFrom(db: Db, datasetId: number): PackageOwner | null {
  let stmt = statements.get(db)
  if (!stmt) {
    stmt = db.prepare(
      `SELECT p.id, p.annotator_id AS annotatorId, a.name AS annotator
       FROM package_opened p JOIN annotators a ON a.id = p.annotator_id
       WHERE p.dataset_id = ? ORDER BY p.opened_at LIMIT 1`,
    )
    statements.set(db, stmt)
  }
  return (stmt.get(datasetId) as PackageOwner | undefined) ?? null
}

/**
 * Why `name` may not label (or bundle) this dataset here, or null when they may. The message
 * stops at the reason; each transport adds how to name the package's annotator there.
 */
export function notPackageAnnotator(
  db: Db,
  datasetId: number,
  name: string,
  doing: 'label' | 'bundle',
): { owner: string; message: string } | null {
  const owner = openedFrom(db, datasetId)
  if (!owner || owner.annotator === name.trim()) return null
  const dataset = (db.prepare('SELECT name FROM datasets WHERE id = ?').get(datasetId) as { name: string })
    .name
  const what =
    doing === 'label'
      ? `labels here are ${owner.annotator}'s, and the lead would refuse a bundle of ${name.trim()}'s`
      : `its bundle carries ${owner.annotator}'s labels; the lead would refuse one of ${name.trim()}'s`
  return {
    owner: owner.annotator,
    message: `This workspace was opened from ${owner.annotator}'s work package for "${dataset}": ${what}`,
  }
}

/** The service's side of the same rule, for every transport (the laptop's browser included). */
export function refuseLabelOutsidePackage(db: Db, datasetId: number, annotatorId: number): void {
  const owner = openedFrom(db, datasetId)
  if (!owner || owner.annotatorId === annotatorId) return
  throw new ServiceError(
    'conflict',
    `This workspace was opened from ${owner.annotator}'s work package: only ${owner.annotator} labels here (the lead merges its bundle as ${owner.annotator}'s only). Switch to ${owner.annotator} (“Labelling as” in the sidebar; --annotator ${owner.annotator} from the CLI) to label`,
  )
}
