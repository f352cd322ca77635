import type { Viewer } from '../../shared/contract/viewer'
import { ServiceError } from '../app/errors'
import { everGaveVerdict, targetsLabelledBy } from '../labels/blindReads'
import { labelledBy } from '../labels/sql'
import type { Db } from '../store/connection'
import { datasetSettings } from '../store/repos/datasets'
import { now } from '../store/repos/rows'
import { adjudicationRefusal, reveals } from './rule'

/*
 * Blind mode, enforced where the data leaves main. Every call that can show what others said
 * about a target (annotate, adjudication queue, items, unit history, judge verdicts,
 * disagreements) asks a gate built here and drops what the gate keeps hidden.
 */

export interface BlindGate {
  /** True when nothing is hidden from this viewer in this dataset. */
  readonly open: boolean
  reveals(targetId: number): boolean
}

const OPEN: BlindGate = { open: true, reveals: () => true }

export function hasSteppedOut(db: Db, datasetId: number, annotatorId: number): boolean {
  return (
    db
      .prepare('SELECT 1 FROM adjudicator_stepouts WHERE dataset_id = ? AND annotator_id = ?')
      .get(datasetId, annotatorId) !== undefined
  )
}

/**
 * The gate for one viewer in one dataset. `targetIds` narrows the lookup of the viewer's own
 * labels to the targets a reply is about (one item), so opening an item stays a few row reads.
 */
export function blindGate(
  db: Db,
  datasetId: number,
  viewer: Viewer | undefined,
  targetIds?: readonly number[],
): BlindGate {
  if (!viewer?.blind) return OPEN
  if (viewer.annotatorId === null) return { open: false, reveals: () => false }
  if (hasSteppedOut(db, datasetId, viewer.annotatorId)) return OPEN
  const labelled = targetsLabelledBy(db, viewer.annotatorId, datasetId, targetIds)
  return { open: false, reveals: (id) => reveals(viewer, { labelled, steppedOut: false }, id) }
}

/**
 * An annotator steps out of labelling a dataset to adjudicate it: from now on they see every
 * verdict in it, and their labels there are refused. Stepping out is kept; it cannot be undone.
 */
export function stepOut(db: Db, datasetId: number, annotatorId: number): void {
  db.prepare(
    'INSERT INTO adjudicator_stepouts (dataset_id, annotator_id, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  ).run(datasetId, annotatorId, now())
}

export function refuseLabelIfSteppedOut(db: Db, datasetId: number, annotatorId: number): void {
  if (hasSteppedOut(db, datasetId, annotatorId))
    throw new ServiceError(
      'conflict',
      'You stepped out of labelling this dataset to adjudicate it, so your labels here are no longer taken',
    )
}

/**
 * Checks that an adjudicator may decide a target and says whether they labelled it themselves
 * (recorded with the decision when the dataset allows self-adjudication).
 */
export function checkAdjudicator(
  db: Db,
  input: { datasetId: number; targetId: number; adjudicatorId: number },
): { labelledByAdjudicator: boolean } {
  // Any verdict they ever gave counts: clearing a label first does not make them a third party.
  const labelledByAdjudicator = everGaveVerdict(db, input.targetId, input.adjudicatorId)
  const refusal = adjudicationRefusal({
    labelledByAdjudicator,
    allowSelfAdjudication: datasetSettings(db, input.datasetId).allowSelfAdjudication,
  })
  if (refusal) throw new ServiceError('conflict', refusal)
  return { labelledByAdjudicator }
}

/**
 * The gate as SQL, for queries that count or filter in the database: true for a target
 * (`column`) the viewer may see what others said about. Bind `@viewerId`; null when no clause
 * is needed (not blind, or stepped out).
 */
export function blindSql(
  db: Db,
  datasetId: number,
  viewer: Viewer | undefined,
  column: string,
): string | null {
  if (!viewer?.blind) return null
  if (viewer.annotatorId === null) return '0'
  if (hasSteppedOut(db, datasetId, viewer.annotatorId)) return null
  return labelledBy(column, '@viewerId')
}
