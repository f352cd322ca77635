import type { BundleLabel } from '../export/bundleFormat'
import type { Db } from '../store/connection'

/** One label of an annotator's bundle, with what locates its target in another workspace. */
export interface BundleLabelRow {
  target_id: number
  ext_id: string
  variant: string
  unit_id: number
  kind: BundleLabel['target']['kind']
  text: string
  triplet: string | null
  superseded_by: number | null
  deleted: number
  /** Set for the latest version of a chain (current or deleted); null for an earlier one. */
  occ: number | null
  verdict: string | null
  evidence: string
  note: string | null
  seconds: number
  guidelines_version: number | null
  created_at: string
  updated_at: string
}

/** How many labels (cleared ones included) the annotator has in the dataset. */
export function bundleLabelCount(db: Db, datasetId: number, annotatorId: number): number {
  return (
    db
      .prepare(
        `SELECT COUNT(*) AS n FROM labels l JOIN targets t ON t.id = l.target_id
         WHERE t.dataset_id = @ds AND l.annotator_id = @ann`,
      )
      .get({ ds: datasetId, ann: annotatorId }) as { n: number }
  ).n
}

/**
 * The annotator's labels in the dataset in reading order, streamed. `occ` numbers a version
 * among latest versions with the same text in the same place, so duplicates stay apart.
 */
export function bundleLabelRows(
  db: Db,
  datasetId: number,
  annotatorId: number,
): IterableIterator<BundleLabelRow> {
  const labels = db.prepare(
    `WITH latest AS (
       SELECT u.id,
         ROW_NUMBER() OVER (PARTITION BY u.item_id, u.candidate_id, u.kind, u.text, u.deleted_at IS NULL
                            ORDER BY u.position, u.id) - 1 AS occ
       FROM units u JOIN items i ON i.id = u.item_id
       WHERE i.dataset_id = @ds AND u.superseded_by IS NULL)
     SELECT l.target_id, i.ext_id, c.variant, u.id AS unit_id, u.kind, u.text, u.triplet, u.superseded_by,
       u.deleted_at IS NOT NULL AS deleted, latest.occ, l.verdict, l.evidence, l.note, l.seconds,
       l.guidelines_version, l.created_at, l.updated_at
     FROM labels l JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
     LEFT JOIN latest ON latest.id = u.id
     JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id
     WHERE t.dataset_id = @ds AND l.annotator_id = @ann
     ORDER BY i.position, c.id, u.kind, u.id`,
  )
  return labels.iterate({ ds: datasetId, ann: annotatorId }) as IterableIterator<BundleLabelRow>
}

/** One history row as a bundle carries it (evidence still as JSON text). */
export interface BundleHistoryRow {
  verdict: string | null
  evidence: string
  note: string | null
  seconds: number
  action: string
  at: string
  /** The version the state was given under; null where it is not known (migration 0450). */
  guidelinesVersion: number | null
}

/** A target's label history for one annotator, oldest first. */
export function bundleLabelHistory(db: Db): (targetId: number, annotatorId: number) => BundleHistoryRow[] {
  const history = db.prepare(
    `SELECT verdict, evidence, note, seconds, action, at, guidelines_version AS guidelinesVersion
     FROM label_history WHERE target_id = ? AND annotator_id = ? ORDER BY id`,
  )
  return (targetId, annotatorId) => history.all(targetId, annotatorId) as BundleHistoryRow[]
}
