import type { Db } from '../store/connection'

/** One of the annotator's own current labels, named by content as a package names its controls. */
export interface OwnLabelRow {
  item: string
  variant: string
  kind: string
  unit: string
  verdict: string
  evidence: string
  note: string | null
  seconds: number
  guidelinesVersion: number | null
  updatedAt: string
}

/**
 * The labels this person already gave on the dataset's current units, for her work package: her
 * laptop then shows her own work as done. Nobody else's labels: blind stays blind.
 */
export function ownCurrentLabels(db: Db, datasetId: number, annotatorId: number): OwnLabelRow[] {
  return db
    .prepare(
      `SELECT i.ext_id AS item, c.variant, u.kind, u.text AS unit, l.verdict, l.evidence, l.note, l.seconds,
         l.guidelines_version AS guidelinesVersion, l.updated_at AS updatedAt
       FROM labels l JOIN targets t ON t.id = l.target_id JOIN items i ON i.id = t.item_id
         JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? AND l.annotator_id = ? AND l.verdict IS NOT NULL
         AND u.superseded_by IS NULL AND u.deleted_at IS NULL
       ORDER BY t.id`,
    )
    .all(datasetId, annotatorId) as OwnLabelRow[]
}
