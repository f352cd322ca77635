import { z } from 'zod'
import { DatasetSource } from '../domain'
import { ImportFormat, Mapping, PresetName } from '../importMapping'
import { ImportWarning } from '../importWarnings'
import { LabelSchema } from '../labelSchemas'
import { call } from './define'
import { Viewer } from './viewer'

/** One dataset with its progress: targets labelled per annotator against the total. */
export const DatasetSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  labelSchema: LabelSchema,
  source: DatasetSource,
  createdAt: z.string(),
  items: z.number().int(),
  candidates: z.number().int(),
  units: z.number().int(),
  targets: z.number().int(),
  variants: z.array(z.string()),
  labelledBy: z.array(
    z.object({
      annotatorId: z.number().int(),
      name: z.string(),
      labelled: z.number().int(),
      /** The dataset's own reference labels (imported), not a person. */
      source: z.boolean(),
    }),
  ),
  disputed: z.number().int(),
  /** Progress against the annotation plan (k labels per target), when the dataset has one. */
  plan: z
    .object({
      k: z.number().int(),
      policy: z.enum(['open', 'fixed']),
      targets: z.number().int(),
      complete: z.number().int(),
      towards: z.number().int(),
      wanted: z.number().int(),
      /**
       * On an annotator's laptop (opened from a work package): the figures are this person's
       * labels on the work the package gave them, not k × targets, which only the lead can reach.
       */
      package: z.object({ annotator: z.string() }).nullable().optional(),
    })
    .nullable()
    .optional(),
})
export type DatasetSummary = z.infer<typeof DatasetSummary>

export const ItemFilter = z.object({
  /** all; unlabelled: has a target I have not labelled; disputed: annotators disagree, no gold;
   * judgeDisagreement: a judge verdict differs from a human label. */
  status: z.enum(['all', 'unlabelled', 'disputed', 'judgeDisagreement']).default('all'),
  variant: z.string().nullable().default(null),
  search: z.string().max(500).default(''),
})
export type ItemFilter = z.infer<typeof ItemFilter>

export const ItemRow = z.object({
  itemId: z.number().int(),
  extId: z.string(),
  position: z.number().int(),
  question: z.string().nullable(),
  /** The start of the reference, enough for a table cell. */
  referencePreview: z.string(),
  variants: z.array(z.string()),
  targets: z.number().int(),
  labelledByMe: z.number().int(),
  disputed: z.number().int(),
})
export type ItemRow = z.infer<typeof ItemRow>

const FileName = z
  .string()
  .min(1)
  .max(255)
  // '.' and '..' name folders, and NUL ends a path early: none of them is a file the bytes can go in.
  .refine((n) => !/[/\\\0]/.test(n) && n !== '.' && n !== '..', 'a file name, not a path')

/**
 * Where main reads a file the person picked. The desktop app knows its path; browser mode first
 * streams it to the server (`POST /api/upload`) and names the upload; small files and tests may
 * still carry the bytes inline. Each shape has its own key, so exactly one of them matches.
 */
export const FileSource = z.union([
  z.strictObject({ path: z.string().trim().min(1).max(4096) }),
  z.strictObject({ uploadId: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'an upload id') }),
  z.strictObject({ fileName: FileName, contentBase64: z.string() }),
])
export type FileSource = z.infer<typeof FileSource>

const Upload = z.object({
  source: FileSource,
  /** How to read the file (the CLI's `--format`); detected from its name and content when left out. */
  format: ImportFormat.optional(),
  preset: PresetName.optional(),
  mapping: Mapping.optional(),
})

export const ImportPreview = z.object({
  format: z.string(),
  /** The layout the preview was read with: the one asked for, else the detected one. */
  preset: z.string().nullable(),
  /** The layout the file's columns match, whatever was asked for. */
  detected: z.string().nullable(),
  columns: z.array(z.string()),
  rows: z.array(z.record(z.string(), z.unknown())),
  mapping: Mapping.nullable(),
  /** The part sent ended before its first whole row: send a longer one (`partial`). */
  needsMore: z.boolean(),
  /** Read as SummEval: the rating dimensions the shown rows score, one of which becomes the gold. */
  dimensions: z.array(z.string()).default([]),
})
export type ImportPreview = z.infer<typeof ImportPreview>

export const ImportReport = z.object({
  datasetId: z.number().int(),
  dataset: z.string(),
  items: z.number().int(),
  candidates: z.number().int(),
  units: z.number().int(),
  annotators: z.number().int(),
  labels: z.number().int(),
  skipped: z.array(
    z.object({
      line: z.number().int(),
      /** The place as the report words it: "line 4, column 12", "record 2 of the JSON array". */
      at: z.string(),
      reason: z.string(),
      file: z.string().optional(),
    }),
  ),
  /** What was imported but deserves a look (a label key matching no fact, a repeated row). */
  warnings: z.array(ImportWarning).default([]),
  /** Several files: each file and the candidate variant it became. */
  files: z.array(z.object({ file: z.string(), variant: z.string(), rows: z.number().int() })).optional(),
})
export type ImportReport = z.infer<typeof ImportReport>

/** Calls of the datasets area. Names read `datasets.verb`. */
export const datasetsCalls = {
  'datasets.list': call(z.object({}).default({}), z.array(DatasetSummary)),
  /**
   * Imports that stopped part-way (a full disk) and could not withdraw their rows: hidden from
   * every list, holding their name and the space, until withdrawn (datasets.withdrawImport).
   */
  'datasets.stoppedImports': call(
    z.object({}).default({}),
    z.array(
      z.object({
        datasetId: z.number().int(),
        name: z.string(),
        items: z.number().int(),
        /** Items the file holds, when known as the import started (JSONL, Parquet); null: not known. */
        itemsInFile: z.number().int().nullable(),
        file: z.string().nullable(),
        startedAt: z.string().nullable(),
      }),
    ),
  ),
  /** Withdraws a stopped import's hidden rows; a visible dataset can never go this way. */
  'datasets.withdrawImport': call(
    z.object({ datasetId: z.number().int() }),
    z.object({ name: z.string(), items: z.number().int() }),
  ),
  /** Names only: cheap enough to ask on every navigation, whatever the datasets' size. */
  'datasets.names': call(
    z.object({}).default({}),
    z.array(z.object({ id: z.number().int(), name: z.string() })),
  ),
  /** What the items table needs about its dataset, without the progress counts. */
  'datasets.brief': call(
    z.object({ datasetId: z.number().int() }),
    z.object({
      id: z.number().int(),
      name: z.string(),
      labelSchema: LabelSchema,
      variants: z.array(z.string()),
    }),
  ),
  'datasets.get': call(z.object({ datasetId: z.number().int() }), DatasetSummary),
  /** One page of a dataset's items, filtered; `total` counts every match for the scrollbar. */
  'datasets.items': call(
    z.object({
      datasetId: z.number().int(),
      annotatorId: z.number().int().nullable(),
      filter: ItemFilter.default({ status: 'all', variant: null, search: '' }),
      offset: z.number().int().nonnegative().default(0),
      limit: z.number().int().min(1).max(500).default(100),
      /** While blind, disputes and judge disagreements count only on targets the viewer labelled. */
      viewer: Viewer.optional(),
    }),
    z.object({ total: z.number().int(), rows: z.array(ItemRow) }),
  ),
  'datasets.importPreview': call(
    Upload.extend({
      rows: z.number().int().min(1).max(50).default(5),
      /**
       * The source is only the start of the file (browser mode sends the first megabyte): its
       * cut last row is left out, and a reply of `needsMore` asks for a longer part.
       */
      partial: z.boolean().default(false),
    }),
    ImportPreview,
  ),
  'datasets.import': call(
    Upload.extend({
      /** Further files imported with `source` into the same dataset, one candidate variant each. */
      moreSources: z.array(FileSource).max(500).default([]),
      datasetName: z.string().trim().min(1).max(200).optional(),
      skipBadRows: z.boolean().default(false),
      /** A mapping's label columns named after people already here are filed as theirs (else refused). */
      creditExistingPeople: z.boolean().default(false),
      /**
       * Where each upload (`source`, then `moreSources`) sits in the folder the person picked
       * (`zero_context/nq_gpt4_answers.json`): an upload keeps only its file name, and the variant
       * names and the setting come from the folders, as the CLI reads them from the paths it is
       * given. A source given by its path is named by that path.
       */
      pickedPaths: z.array(z.string().trim().min(1).max(4096)).max(501).optional(),
      /** RefChecker: the file giving the question and reference of each id (the CLI's `--second-file`). */
      secondSource: FileSource.optional(),
      /** SummEval: the rating dimension whose expert scores become the labels (the CLI's `--dimension`). */
      dimension: z.string().trim().min(1).max(100).optional(),
    }),
    ImportReport,
  ),
}
