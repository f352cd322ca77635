import { packageLabelTarget } from '../labels/packageLabels'
import type { Db } from '../store/connection'
import { now } from '../store/repos/rows'
import type { PackageHeader } from './packageFormat'

/**
 * Marks on the laptop the controls a package carries, when it is opened or refreshed. They come
 * without answers (an empty verdict): the queue mixes them in, nobody scores them here. Each is
 * named as a label is (wording and which occurrence of it), so of two identically worded units in
 * one answer only the lead's control is marked, and its twin stays ordinary work.
 */
export function markPackageControls(db: Db, datasetId: number, controls: PackageHeader['controls']): void {
  const mark = db.prepare(
    `INSERT OR IGNORE INTO controls (target_id, dataset_id, verdict, source, created_at) VALUES (?, ?, '', 'file', ?)`,
  )
  const target = packageLabelTarget(db)
  const at = now()
  for (const c of controls) {
    const targetId = target(datasetId, c)
    if (targetId !== null) mark.run(targetId, datasetId, at)
  }
}
