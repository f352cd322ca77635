import type { Db } from '../store/connection'

/** One of the annotator's own current labels, named by content as a package names its controls. */
export interface OwnLabelRow {
  item: string
  variant: string
  kind: string
  unit: string
  /**
   * Which of the current units with this wording in the same item, candidate and kind (0 for the
   * first by position): two identically worded units are two targets, and each keeps its own label.
   */
  occurrence: number
  verdict: string
  evidence: string
  note: string | null
  seconds: number
  guidelinesVersion: number | null
  updatedAt: string
}

/**
 * Current units numbered among those with the same wording in the same place, by position: the
 * order a package writes its units in, so the laptop numbers them alike (packageOpen.ts). The
 * same rule as a bundle's `occurrence` (bundleReads.ts), over current units only.
 */
export const CURRENT_OCCURRENCES = `SELECT u.id,
    ROW_NUMBER() OVER (PARTITION BY u.item_id, u.candidate_id, u.kind, u.text ORDER BY u.position, u.id) - 1 AS occ
  FROM units u JOIN items i ON i.id = u.item_id
  WHERE i.dataset_id = @ds AND u.superseded_by IS NULL AND u.deleted_at IS NULL`

/**
 * The labels this person already gave on the dataset's current units, for her work package: her
 * laptop then shows her own work as done. Nobody else's labels: blind stays blind.
 */
export function ownCurrentLabels(db: Db, datasetId: number, annotatorId: number): OwnLabelRow[] {
  return db
    .prepare(
      `WITH current AS (${CURRENT_OCCURRENCES})
       SELECT i.ext_id AS item, c.variant, u.kind, u.text AS unit, current.occ AS occurrence, l.verdict,
         l.evidence, l.note, l.seconds, l.guidelines_version AS guidelinesVersion, l.updated_at AS updatedAt
       FROM labels l JOIN targets t ON t.id = l.target_id JOIN items i ON i.id = t.item_id
         JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
         JOIN current ON current.id = u.id
       WHERE t.dataset_id = @ds AND l.annotator_id = @ann AND l.verdict IS NOT NULL
       ORDER BY t.id`,
    )
    .all({ ds: datasetId, ann: annotatorId }) as OwnLabelRow[]
}

/**
 * The target a package's label names on the laptop: the unit with that wording in that item,
 * variant and kind, and among identically worded ones the `occurrence`-th by position. Null when
 * there is none (a package never names a target the laptop lacks, but a file can be edited).
 */
export function packageLabelTarget(
  db: Db,
): (
  datasetId: number,
  l: { item: string; variant: string; kind: string; unit: string; occurrence: number },
) => number | null {
  const find = db.prepare(
    `SELECT t.id FROM targets t JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id
       JOIN units u ON u.id = t.unit_id
     WHERE t.dataset_id = @ds AND i.ext_id = @item AND c.variant = @variant AND u.kind = @kind AND u.text = @unit
       AND u.superseded_by IS NULL AND u.deleted_at IS NULL
     ORDER BY u.position, u.id LIMIT 1 OFFSET @occurrence`,
  )
  return (datasetId, l) =>
    (find.pluck().get({
      ds: datasetId,
      item: l.item,
      variant: l.variant,
      kind: l.kind,
      unit: l.unit,
      occurrence: l.occurrence,
    }) as number | undefined) ?? null
}
