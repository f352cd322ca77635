/** Importers: files → datasets (streamed, atomic), and external judge verdicts → runs. */

export { chooseConverter } from './converter'
export { ImportError, ImportStopped } from './errors'
export {
  type ImportOptions,
  type ImportReport,
  importFile,
  type SkippedRow,
} from './importFile'
export { detectPreset } from './presets'
export { type Preview, type PreviewOptions, previewFile } from './preview'
export { detectFormat } from './sources'
export { type ImportVerdictsOptions, type ImportVerdictsReport, importVerdicts } from './verdicts'
