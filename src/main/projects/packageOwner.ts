import { GUIDELINES_AT_LEAD } from '../../shared/guidelinesCheck'
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

/**
 * Who may label in this workspace: on a laptop, where every dataset came from a work package,
 * only the packages' annotators (their labels are the only ones a lead can merge back); in a
 * workspace with datasets of its own, anyone. The gate offers these names and says why.
 */
export function laptopLabellers(db: Db): { only: { id: number; name: string }[] | null; why: string | null } {
  const rows = db
    .prepare(
      `SELECT DISTINCT a.id, a.name, d.name AS dataset FROM package_opened p
       JOIN annotators a ON a.id = p.annotator_id JOIN datasets d ON d.id = p.dataset_id
       WHERE d.state = 'ready' ORDER BY a.name, d.name`,
    )
    .all() as { id: number; name: string; dataset: string }[]
  const own = db
    .prepare(
      `SELECT 1 FROM datasets d WHERE d.state = 'ready'
       AND NOT EXISTS (SELECT 1 FROM package_opened p WHERE p.dataset_id = d.id)`,
    )
    .get()
  if (rows.length === 0 || own) return { only: null, why: null }
  const people = [...new Map(rows.map((r) => [r.id, { id: r.id, name: r.name }])).values()]
  const names = people.map((p) => p.name).join(' and ')
  const datasets = [...new Set(rows.map((r) => `"${r.dataset}"`))].join(', ')
  return {
    only: people,
    why: `This workspace was opened from ${names}'s work package for ${datasets}: only ${names} labels here, because the lead merges its labels back as ${names}'s only. Someone else labels in their own package, opened in a fresh workspace (File › New).`,
  }
}

/**
 * The lead's side of a project refused on a laptop, as its plan is (plan.ts): controls,
 * guidelines and packages come from the lead in the package, and nothing of them goes back with
 * the bundle. A control marked here would show its known answer to the very person it checks; a
 * package written here would hand out a second copy of her share that the lead never hears of;
 * guidelines saved here would take the number of the lead's next version, which a newer package
 * then could not bring, and her labels would cite a version the lead never wrote.
 */
export function refuseLeadWorkOnLaptop(
  db: Db,
  datasetId: number,
  work: 'controls' | 'package' | 'guidelines',
): void {
  const owner = openedFrom(db, datasetId)
  if (!owner) return
  const who = owner.annotator
  const opened = `This workspace was opened from ${who}'s work package`
  throw new ServiceError(
    'conflict',
    work === 'controls'
      ? `${opened}: the control items are the lead's. Mark or clear them in the lead's workspace and hand out a new package. Nothing was changed`
      : work === 'guidelines'
        ? `${opened}: the guidelines are the lead's. ${GUIDELINES_AT_LEAD} Nothing was changed`
        : `${opened}: packages are written in the lead's workspace. To send ${who}'s labels back, write a bundle (“Bundle my labels”; factlab bundle). Nothing was written`,
  )
}
