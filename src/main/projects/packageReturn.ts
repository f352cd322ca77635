import { ServiceError } from '../app/errors'
import type { Db } from '../store/connection'
import { now } from '../store/repos/rows'

/**
 * The package this dataset was opened from (a laptop's workspace), for the bundle header: the
 * newest, when a refreshed package came after the first, so the lead marks that one as back.
 */
export function bundlePackage(db: Db, datasetId: number): { package?: { id: string } } {
  const row = db
    .prepare('SELECT id FROM package_opened WHERE dataset_id = ? ORDER BY opened_at DESC, rowid DESC LIMIT 1')
    .get(datasetId) as { id: string } | undefined
  return row ? { package: { id: row.id } } : {}
}

interface PackageRow {
  id: string
  dataset_id: number
  annotator: string
}

/**
 * A bundle that names a package this workspace handed out must come back from that package's
 * annotator, for that dataset; anything else is refused before a label is written. A bundle
 * naming a package made elsewhere (merging between laptops) merges as any bundle does.
 */
export function checkBundlePackage(
  db: Db,
  header: { package?: { id: string }; annotator: { name: string }; dataset: { name: string } },
  datasetId: number,
): string | null {
  if (!header.package) return null
  const row = db
    .prepare(
      `SELECT p.id, p.dataset_id, a.name AS annotator FROM packages p JOIN annotators a ON a.id = p.annotator_id
       WHERE p.id = ?`,
    )
    .get(header.package.id) as PackageRow | undefined
  if (!row) return null
  if (row.dataset_id !== datasetId)
    throw new ServiceError(
      'bad_input',
      `This bundle comes back from a package of another dataset than "${header.dataset.name}" here. Nothing was merged`,
    )
  if (row.annotator !== header.annotator.name)
    throw new ServiceError(
      'bad_input',
      `This bundle carries ${header.annotator.name}'s labels, but it comes from the package made for ${row.annotator}: a package is for one annotator only. Nothing was merged`,
    )
  return row.id
}

/** Records a package's labels as back (the dashboard's "packages out and back"). */
export function markPackageReturned(db: Db, packageId: string, labels: number): void {
  db.prepare('UPDATE packages SET returned_at = ?, labels_back = ? WHERE id = ?').run(
    now(),
    labels,
    packageId,
  )
}
