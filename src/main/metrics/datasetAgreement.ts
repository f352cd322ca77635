import type { Db } from '../store/connection'
import { listAnnotators } from '../store/repos/annotators'
import { agreementFromLabels } from './agreementCodes'
import { agreementFromMatrix, type DatasetAgreement, sourceNames } from './agreementService'
import { ratingsMatrix } from './humans'
import { memoised, type Snapshot } from './snapshot'
import { agreementInDatasetOrder } from './variantOrder'

/** Every annotator's name by id, as the agreement figures name them. */
export function annotatorNames(db: Db): [id: number, name: string][] {
  return listAnnotators(db).map((a) => [a.id, a.name])
}

/** The ids of the dataset's own reference labels (sources): never inside the overall figures. */
export function sourceIds(db: Db): number[] {
  return listAnnotators(db)
    .filter((a) => a.kind === 'source')
    .map((a) => a.id)
}

/**
 * Agreement among a dataset's annotators from the loaded label columns (the same figures as
 * agreementForDataset's row-by-row pass; test/metrics/service.test.ts holds them equal). Numeric
 * labels are compared as numbers (interval α), which the string matrix handles.
 */
export function agreementOf(db: Db, s: Snapshot): DatasetAgreement {
  const names = new Map(annotatorNames(db))
  return s.t.schema.type === 'numeric'
    ? agreementFromMatrix(ratingsMatrix(s.t, names), true, 0, sourceNames(db))
    : agreementFromLabels(s.t, names, new Set(sourceIds(db)))
}

/**
 * The Agreement view's figures, computed once per workspace version and shared with the Compare
 * view's snapshot: a million labelled targets are read once, not once per view.
 */
export function datasetAgreement(db: Db, datasetId: number, includeControls = false): DatasetAgreement {
  return memoised(
    db,
    datasetId,
    'agreement',
    (s) => agreementInDatasetOrder(db, datasetId, agreementOf(db, s)),
    includeControls,
  )
}

/**
 * Keeps figures worked out elsewhere from the current snapshot's columns (a worker thread's
 * agreementFromLabels, compareInBackground.ts) as that snapshot's datasetAgreement.
 */
export function keepAgreement(db: Db, datasetId: number, figures: DatasetAgreement): void {
  memoised(db, datasetId, 'agreement', () => agreementInDatasetOrder(db, datasetId, figures))
}
