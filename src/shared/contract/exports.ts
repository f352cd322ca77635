import { z } from 'zod'
import { FileSource } from './datasets'
import { call } from './define'

/** The layouts a dataset can be written in; main's exporter must know each of them. */
export const EXPORT_FORMAT_NAMES = [
  'jsonl',
  'csv',
  'parquet',
  'wikievalfacts-csv',
  'wikievalfacts-jsonl',
  'refchecker-json',
] as const
export const ExportFormatName = z.enum(EXPORT_FORMAT_NAMES)
export type ExportFormatName = z.infer<typeof ExportFormatName>

/** What a person sees in the format menu. */
export const EXPORT_FORMAT_LABELS: Record<ExportFormatName, string> = {
  jsonl: 'JSONL (one row per unit and answer)',
  csv: 'CSV (one row per unit and answer)',
  parquet: 'Parquet (one row per unit and answer)',
  'wikievalfacts-csv': 'WikiEvalFacts CSV (one row per item)',
  'wikievalfacts-jsonl': 'WikiEvalFacts JSONL (one row per item)',
  'refchecker-json': 'RefChecker release layout (a folder, one JSON file per variant)',
}

/**
 * A path typed by the person. In browser mode the server runs on their own machine, so a local
 * path is what they mean; main insists it is absolute so nothing lands beside the app by chance.
 */
const LocalPath = z.string().trim().min(1).max(4096)

/** Named by whoever starts an export, so its progress events can be told apart and it can be cancelled. */
const ExportId = z.string().trim().min(1).max(100)

/** A bundle to merge: a path on this machine, an upload (browser mode) or the bytes inline. */
export const BundleSource = FileSource

export const MergeReport = z.object({
  dataset: z.string(),
  annotator: z.string(),
  added: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  kept_local: z.number().int(),
  /** Labels on unit versions no longer current (edited or deleted); also counted above. */
  earlier_versions: z.number().int(),
  /** Unit versions this workspace lacked, recreated so the labels on them have a place. */
  recreated_versions: z.number().int(),
  recreated: z.array(
    z.object({
      item: z.string(),
      variant: z.string().nullable(),
      kind: z.string(),
      text: z.string(),
      deleted: z.boolean(),
    }),
  ),
})
export type MergeReport = z.infer<typeof MergeReport>

/** Calls of the exports area: datasets, run verdicts and annotation bundles out, bundles in. */
export const exportsCalls = {
  /** Where an export or bundle goes when the person types nothing: beside the workspace file. */
  'exports.defaults': call(
    z.object({ datasetId: z.number().int(), annotatorId: z.number().int().nullable().default(null) }),
    z.object({ outDir: z.string(), bundleFile: z.string() }),
  ),
  /** Writes the data file and a README.md card into a new (or empty) folder. */
  'exports.dataset': call(
    z.object({
      datasetId: z.number().int(),
      format: ExportFormatName,
      outDir: LocalPath.optional(),
      /** Only this annotator's labels (by name), or theirs instead of the gold (WikiEvalFacts). */
      annotator: z.string().trim().min(1).max(200).optional(),
      exportId: ExportId.optional(),
    }),
    z.object({
      files: z.array(z.string()),
      /** What the layout leaves behind (a release layout: one label per unit and answer). */
      note: z.string().optional(),
    }),
  ),
  /**
   * Browser mode: the export prepared on the server for the browser to download once from
   * `/api/download/<downloadId>`: a zip of every file the export writes (`files`, as the CLI
   * names them), or a lone small file as itself.
   */
  'exports.download': call(
    z.object({
      datasetId: z.number().int(),
      format: ExportFormatName,
      annotator: z.string().trim().min(1).max(200).optional(),
      exportId: ExportId.optional(),
    }),
    z.object({
      downloadId: z.string(),
      fileName: z.string(),
      bytes: z.number().int(),
      zipped: z.boolean(),
      /** The files the download holds, by their names in the export folder. */
      files: z.array(z.string()),
      note: z.string().optional(),
    }),
  ),
  /**
   * Stops a dataset export (exports.dataset or exports.download) started with this id at its
   * next batch of rows; it then fails with a message saying so, leaving no file behind.
   * `cancelled` is false when no such export is under way (it had ended already).
   */
  'exports.cancel': call(z.object({ exportId: ExportId }), z.object({ cancelled: z.boolean() })),
  /** Browser mode: a run's verdicts (JSON lines) to download once, like exports.download. */
  'exports.downloadVerdicts': call(
    z.object({ runId: z.number().int(), raw: z.boolean().default(false), csv: z.boolean().default(false) }),
    z.object({ downloadId: z.string(), fileName: z.string(), bytes: z.number().int(), zipped: z.boolean() }),
  ),
  /** Browser mode: one annotator's bundle to download once, like exports.download. */
  'exports.downloadBundle': call(
    z.object({ datasetId: z.number().int(), annotatorId: z.number().int() }),
    z.object({ downloadId: z.string(), fileName: z.string(), bytes: z.number().int(), zipped: z.boolean() }),
  ),
  /** A run's verdicts; CSV when `out` ends in .csv, JSON lines otherwise. */
  'exports.verdicts': call(
    z.object({ runId: z.number().int(), raw: z.boolean().default(false), out: LocalPath.optional() }),
    /** RefChecker and DCR runs: their per-response figures, written beside the verdicts. */
    z.object({ file: z.string(), rows: z.number().int(), responsesFile: z.string().optional() }),
  ),
  /** One annotator's labels of one dataset, as a file another workspace can merge. */
  'exports.bundle': call(
    z.object({ datasetId: z.number().int(), annotatorId: z.number().int(), out: LocalPath.optional() }),
    z.object({ file: z.string(), labels: z.number().int() }),
  ),
  /**
   * Merges a bundle, all or nothing. With `datasetId` the bundle must belong to that dataset;
   * without, main finds the dataset by the bundle's name or content.
   */
  'exports.mergeBundle': call(
    z.object({ source: BundleSource, datasetId: z.number().int().optional() }),
    MergeReport,
  ),
}
