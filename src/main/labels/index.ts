/**
 * The labels room: every read and write of the `labels`, `label_history`, `gold`, `gold_history`
 * and `label_blocks` (the views' copy of the labels, blocks.ts) tables lives in this folder — saving and clearing a label (with its history
 * row), gold (stored, majority, imported), adjudication, what a bundle export reads and a bundle
 * merge appends, the metrics' label columns, and the SQL conditions other folders' queries use
 * (`sql.ts`). No file outside it prepares SQL on those tables (test/architecture/tableOwners).
 *
 * Inside src/main, import the module you need (e.g. `labels/gold`) rather than this index:
 * some of these modules use store/repos/datasets, which in turn reads label counts from here.
 */
export { adjudicate, adjudicationQueue, queueEntries } from './adjudication'
export { bundleLabelCount, bundleLabelHistory, bundleLabelRows } from './bundleReads'
export { loadLabelRows } from './columns'
export { labelDeleters } from './discard'
export {
  type GoldSource,
  type GoldVerdict,
  goldTargetsAmong,
  importedGoldWriter,
  resolveGold,
  setGold,
  storedGoldRows,
} from './gold'
export {
  type HistoryEntry,
  type LabelAction,
  LabelWriter,
  labelHistory,
  labelsForTargets,
  nextUnlabelledTarget,
} from './labels'
export { MergeTargetLabels } from './merge'
export * from './reads'
export { datasetOfTarget, requireAnnotator, saveLabel } from './save'
export * from './sql'
