import { labelColumnsOf } from '../../../src/main/labels/projectReads'
import { CONTROL, CURRENT, readTargetBlocks } from '../../../src/main/metrics/targetBlocks'
import type { Db } from '../../../src/main/store/connection'
import type { TallyInput, TallyTargets } from './dashboardBlocksTally'

/**
 * Frozen copy (the oracle of dashboardBlocks.ts). What the dashboard's one pass reads (dashboardTally.ts): the dataset's targets and their labels
 * as columns from the stored blocks (a few hundred rows at a million targets, against a million
 * rows joined with their units), its candidates' variants and, under a fixed plan, who holds
 * which item.
 */
export function dashboardColumns(
  db: Db,
  datasetId: number,
  fixed: boolean,
): Pick<TallyInput, 'targets' | 'labels' | 'variantOf' | 'assigned'> {
  const targets = readTargetBlocks(db, datasetId) ?? targetRows(db, datasetId)
  const n = targets.id.length
  const labels = labelColumnsOf(db, n === 0 ? 1 : targets.id[0]!, n === 0 ? 0 : targets.id[n - 1]!)
  const variantOf = new Map(
    db
      .prepare(
        'SELECT c.id, c.variant FROM candidates c JOIN items i ON i.id = c.item_id WHERE i.dataset_id = ? ORDER BY c.id',
      )
      .raw()
      .all(datasetId) as [number, string][],
  )
  let assigned: Map<number, number[]> | null = null
  if (fixed) {
    assigned = new Map()
    for (const [item, annotator] of db
      .prepare('SELECT item_id, annotator_id FROM assignments WHERE dataset_id = ?')
      .raw()
      .all(datasetId) as [number, number][]) {
      const list = assigned.get(item)
      if (list) list.push(annotator)
      else assigned.set(item, [annotator])
    }
  }
  return { targets, labels, variantOf, assigned }
}

/** A workspace from before the target blocks (read-only, not upgraded): the rows themselves. */
function targetRows(db: Db, datasetId: number): TallyTargets {
  const rows = db
    .prepare(
      `SELECT t.id, t.item_id, COALESCE(t.candidate_id, -1),
         (u.superseded_by IS NULL AND u.deleted_at IS NULL) * ${CURRENT}
         + EXISTS (SELECT 1 FROM controls x WHERE x.target_id = t.id) * ${CONTROL}
       FROM targets t JOIN units u ON u.id = t.unit_id WHERE t.dataset_id = ? ORDER BY t.id`,
    )
    .raw()
    .all(datasetId) as [number, number, number, number][]
  return {
    id: Int32Array.from(rows, (r) => r[0]),
    item: Int32Array.from(rows, (r) => r[1]),
    candidate: Int32Array.from(rows, (r) => r[2]),
    flags: Uint8Array.from(rows, (r) => r[3]),
  }
}
