import { blockParts, type LabelRowsColumns, type StoredBlock } from '../labels/blocks'
import { labelColumnsOf } from '../labels/projectReads'
import { CONTROL, CURRENT, readTargetBlocks } from '../metrics/targetBlocks'
import type { Db } from '../store/connection'
import type { LabelSegment, TallyInput, TallyLabels, TallyTargets } from './dashboardTally'

/** What was read already while nothing changed (dashboardInBackground.ts). */
export interface DashboardRead {
  targets?: TallyTargets
  /** the dataset's label blocks, read by a worker */
  labelBlocks?: readonly StoredBlock[] | null
}

/**
 * What the dashboard's one pass reads (dashboardTally.ts): the dataset's targets and their labels
 * as columns from the stored blocks (a few hundred rows at a million targets, against a million
 * rows joined with their units), its candidates' variants and, under a fixed plan, who holds
 * which item. The labels stay where the blocks hold them (labelSegments).
 */
export function dashboardColumns(
  db: Db,
  datasetId: number,
  fixed: boolean,
  read: DashboardRead = {},
): Pick<TallyInput, 'targets' | 'labels' | 'variantOf' | 'assigned'> {
  const targets = read.targets ?? readTargetBlocks(db, datasetId) ?? targetRows(db, datasetId)
  const n = targets.id.length
  const labels = labelSegments(
    labelColumnsOf(db, n === 0 ? 1 : targets.id[0]!, n === 0 ? 0 : targets.id[n - 1]!, read.labelBlocks),
  )
  const variantOf = db
    .prepare(
      'SELECT c.id, c.variant FROM candidates c JOIN items i ON i.id = c.item_id WHERE i.dataset_id = ?',
    )
    .raw()
    .all(datasetId) as [number, string][]
  const assigned = fixed
    ? (db
        .prepare('SELECT item_id, annotator_id FROM assignments WHERE dataset_id = ?')
        .raw()
        .all(datasetId) as [number, number][])
    : null
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

/**
 * The labels as the pass reads them: each stored block's columns where they lie (a million
 * targets' 1.8 million labels are 47 MB that copying out would touch a second time), or the
 * columns themselves when they were read row by row.
 */
export function labelSegments(rows: LabelRowsColumns): TallyLabels {
  const stored = blockParts(rows)
  if (stored)
    return {
      verdicts: rows.verdicts,
      segments: stored.parts.map(
        (p): LabelSegment => ({
          n: p.n,
          base: p.base,
          offset: p.offset,
          target: null,
          annotator: p.annotator,
          verdict: p.verdict,
          codes: p.codes,
          seconds: p.seconds,
        }),
      ),
    }
  const identity = Int32Array.from(rows.verdicts, (_, i) => i)
  return {
    verdicts: rows.verdicts,
    segments: [
      {
        n: rows.target.length,
        base: 0,
        offset: null,
        target: rows.target,
        annotator: rows.annotator,
        verdict: rows.verdict,
        codes: identity,
        seconds: rows.seconds,
      },
    ],
  }
}
