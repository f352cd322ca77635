/** Importers: files → datasets (streamed, atomic), and external judge verdicts → runs. */

export { chooseConverter } from './converter'
export { ImportError, ImportStopped } from './errors'
export { type ImportOptions, importFile } from './importFile'
export { detectPreset } from './presets'
export { type Preview, type PreviewOptions, previewFile } from './preview'
export type { ImportReport, SkippedRow } from './report'
export { detectFormat } from './sources'
export { type ImportVerdictsOptions, type ImportVerdictsReport, importVerdicts } from './verdicts'
