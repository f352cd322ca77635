// export/ owns everything that leaves a workspace as a file: datasets with their dataset card,
// run verdicts, annotation bundles, and merging a bundle made on another workspace.
export { exportBundle } from './bundle'
export { BUNDLE_FORMAT, BUNDLE_VERSION } from './bundleFormat'
export { datasetContentHash } from './contentHash'
export {
  datasetIdByName,
  EXPORT_FORMATS,
  type ExportFormat,
  type ExportOptions,
  exportDataset,
} from './datasetExport'
export { type MergeReport, mergeBundle, readBundle } from './merge'
export { exportVerdicts } from './verdictsExport'
