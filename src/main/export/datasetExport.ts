import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { EXPORT_FORMAT_NAMES } from '../../shared/contract/exports'
import { type DatasetShape, layoutMisfit, layoutsThatFit } from '../../shared/exportLayouts'
import { describeGoldRule } from '../../shared/goldRule'
import { UnitKind } from '../../shared/labelSchemas'
import { countOf } from '../../shared/plural'
import { ServiceError } from '../app/errors'
import type { Workspace } from '../app/workspace'
import { resolveGold } from '../labels/gold'
import { labelCountsByAnnotator } from '../labels/reads'
import { datasetAgreement } from '../metrics/datasetAgreement'
import { projectCardFacts } from '../projects/cardFacts'
import { controlCount } from '../projects/controls'
import type { Db } from '../store/connection'
import { listAnnotators } from '../store/repos/annotators'
import { datasetSettings, findDatasetByName, getDataset, listDatasets } from '../store/repos/datasets'
import { type AgreementSummary, agreementSummary } from './agreementSummary'
import { buildCard } from './card'
import { CardTally } from './cardTally'
import { writeParquet, writeText } from './dataFileWriters'
import { type ExportPace, exportPace } from './exportPace'
import { countingTally, type ExportProgress, exportTargetTotal } from './exportProgress'
import { exportReader, onOneSnapshot } from './exportReader'
import { exportRefcheckerRelease, writeResponses } from './responsesExport'
import { targetBatches, targetIdRange } from './targetColumns'
import { annotatorColumns, type Feature, targetFeatures, targetRows } from './targetRows'
import { type WikiWritten, wikiLayout, wikiRows } from './wikiEvalFacts'
import { wikiNote } from './wikiNote'

/** The layouts offered to people (the app and the CLI alike): each is written below. */
export const EXPORT_FORMATS = EXPORT_FORMAT_NAMES
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

export interface ExportOptions {
  datasetId: number
  format: ExportFormat
  outDir: string
  /** Only this annotator's labels (targets layout) or their labels instead of gold (WikiEvalFacts). */
  annotator?: string
  /**
   * Told how many targets are written as the targets layout goes by, then when the card is
   * written (the release layouts say nothing).
   */
  onProgress?: ExportProgress
  /** Aborted when the person cancels: the export stops at its next batch and leaves no file. */
  signal?: AbortSignal
}

const DATA_FILES: Record<ExportFormat, string> = {
  jsonl: 'data.jsonl',
  csv: 'data.csv',
  parquet: 'data.parquet',
  'wikievalfacts-csv': 'wikievalfacts.csv',
  'wikievalfacts-jsonl': 'wikievalfacts.jsonl',
  'refchecker-json': '',
}

/**
 * Exports a dataset into `outDir`: the data file in the chosen layout and format, plus a
 * README.md dataset card (Hugging Face YAML header + schema, annotators and agreement).
 */
export interface ExportResult {
  files: string[]
  /** What the layout leaves out that the dataset has, for the person to read (release layouts). */
  note?: string
}

/**
 * Writes a dataset's files as of one moment, through a connection of its own so the app answers
 * other calls between batches of rows (exportReader.ts, exportPace.ts).
 */
export async function exportDataset(ws: Workspace, opts: ExportOptions): Promise<ExportResult> {
  const reader = exportReader(ws)
  try {
    const pace = exportPace({ yields: reader.shared, signal: opts.signal })
    // A cancel sent before the export began stops it before any file is made.
    await pace.breathe()
    return await onOneSnapshot(reader, () => datasetFiles(reader.db, opts, pace))
  } finally {
    reader.close()
  }
}

/**
 * The release layouts hold one label per unit and answer, as the published datasets do: a
 * person exporting a workspace labelled by several people is told what stays behind.
 */
function releaseNote(
  layout: 'WikiEvalFacts' | 'RefChecker release',
  written: number,
  all: ReadonlyMap<number, number>,
  annotator: string | undefined,
): string {
  let labels = 0
  for (const n of all.values()) labels += n
  const unit = layout === 'WikiEvalFacts' ? 'fact' : 'triplet'
  const name = layout === 'WikiEvalFacts' ? 'wikievalfacts' : 'refchecker'
  const what =
    annotator === undefined ? countOf(written, 'gold verdict') : `${annotator}'s ${countOf(written, 'label')}`
  return (
    `The ${layout} layout holds one label per ${unit} and answer, as the published dataset does: ` +
    `this export has ${what} (imported back, they come under the name ${name}). ` +
    `The workspace's ${countOf(labels, 'label')} by ${countOf(all.size, 'annotator')}, ` +
    'its adjudicated decisions and its control items come back whole only from the jsonl, csv or parquet layout.'
  )
}

async function datasetFiles(db: Db, opts: ExportOptions, pace: ExportPace): Promise<ExportResult> {
  const dataset = getDataset(db, opts.datasetId)
  let annotatorId: number | undefined
  if (opts.annotator !== undefined) {
    const found = db.prepare('SELECT id FROM annotators WHERE name = ?').get(opts.annotator) as
      | { id: number }
      | undefined
    if (!found) throw new Error(`No annotator named "${opts.annotator}" in this workspace`)
    annotatorId = found.id
  }
  refuseMisfit(db, dataset, opts.format)
  mkdirSync(opts.outDir, { recursive: true })
  if (opts.format === 'refchecker-json') {
    const release = exportRefcheckerRelease(db, dataset.id, opts.outDir)
    const note = releaseNote('RefChecker release', release.labels, labelCounts(db, dataset.id), undefined)
    return { files: release.files, note }
  }
  const dataFile = DATA_FILES[opts.format]
  const file = join(opts.outDir, dataFile)
  const range = targetIdRange(db, dataset.id)
  const labelled = annotatorColumns(db, dataset.id, undefined, range)
  // The card's agreement is among people, as the Agreement view's: a source's labels are the
  // dataset's reference (README), counted as labels but never inside the agreement figures.
  const sources = new Set(
    listAnnotators(db)
      .filter((a) => a.kind === 'source')
      .map((a) => a.id),
  )
  const people = labelled.filter((a) => !sources.has(a.id))
  // The release's own labels, read as the Agreement view reads them (control items left out).
  const release = labelled.some((a) => sources.has(a.id)) ? datasetAgreement(db, dataset.id) : undefined
  let counts: Map<number, number>
  let agreement: AgreementSummary
  let features: Feature[]
  let written: { rows: number; bytes: number }
  let labelSource: string
  let note: string | undefined
  if (opts.format.startsWith('wikievalfacts')) {
    const layout = wikiLayout(db, dataset.id)
    features = layout.features
    const inDicts: WikiWritten = { labels: 0, matchingNoFact: 0 }
    const who = annotatorId === undefined ? undefined : { id: annotatorId, name: opts.annotator! }
    const rows = wikiRows(db, dataset.id, dataset.labelSchema, layout, who, inDicts)
    written = await writeText(
      file,
      opts.format === 'wikievalfacts-csv' ? 'csv' : 'jsonl',
      features,
      rows,
      pace,
    )
    counts = labelCounts(db, dataset.id)
    note = wikiNote({
      written: inDicts.labels,
      matchingNoFact: inDicts.matchingNoFact,
      ...(opts.annotator === undefined ? {} : { annotator: opts.annotator }),
      labels: [...counts.values()].reduce((a, b) => a + b, 0),
      annotators: counts.size,
      adjudicated: [...resolveGold(db, dataset.id).values()].filter((g) => g.source === 'adjudicated').length,
      controls: controlCount(db, dataset.id),
    })
    agreement = agreementSummary(db, dataset.id, people)
    labelSource =
      opts.annotator === undefined
        ? 'the gold verdict of each fact (adjudicated or imported where recorded, otherwise the annotators’ majority)'
        : `the labels of annotator "${opts.annotator}"`
  } else {
    const columns =
      opts.annotator === undefined ? labelled : annotatorColumns(db, dataset.id, opts.annotator, range)
    features = targetFeatures(columns)
    // The card's counts and agreement are tallied as the rows go by: the labels are read once.
    const tally = new CardTally(people)
    const counted = opts.onProgress
      ? countingTally(tally, exportTargetTotal(db, dataset.id), opts.onProgress)
      : tally
    written =
      opts.format === 'parquet'
        ? await writeParquet(
            file,
            features,
            targetBatches(db, dataset.id, dataset.labelSchema, columns, counted, range),
            pace,
          )
        : await writeText(
            file,
            opts.format === 'csv' ? 'csv' : 'jsonl',
            features,
            targetRows(db, dataset.id, dataset.labelSchema, columns, counted, range),
            pace,
          )
    counts = tally.labelled
    agreement = tally.agreement()
    labelSource =
      opts.annotator === undefined
        ? 'one column per annotator, plus the gold verdict and where it comes from'
        : `the column of annotator "${opts.annotator}", plus the gold verdict`
  }
  opts.onProgress?.(0, 1, 'card')
  const shown = opts.annotator === undefined ? labelled : labelled.filter((a) => a.name === opts.annotator)
  const card = buildCard({
    datasetName: dataset.name,
    layout: opts.format.startsWith('wikievalfacts') ? 'wikievalfacts' : 'targets',
    dataFile,
    format: opts.format === 'parquet' ? 'parquet' : opts.format.endsWith('csv') ? 'csv' : 'json',
    features,
    rows: written.rows,
    bytes: written.bytes,
    labelSchema: dataset.labelSchema,
    annotators: shown.map((a) => ({
      name: a.name,
      source: sources.has(a.id),
      column: opts.format.startsWith('wikievalfacts') ? undefined : a.column,
      labels: counts.get(a.id) ?? 0,
    })),
    agreement,
    release,
    project: projectCardFacts(db, dataset.id),
    labelSource,
    goldRule: describeGoldRule(datasetSettings(db, dataset.id).goldRule),
    exportedAt: new Date().toISOString(),
    ...(opts.annotator === undefined ? {} : { only: opts.annotator }),
  })
  const readme = join(opts.outDir, 'README.md')
  writeFileSync(readme, card)
  const responses = writeResponses(db, dataset.id, opts.outDir, opts.format === 'csv' ? 'csv' : 'jsonl')
  opts.onProgress?.(1, 1, 'card')
  return { files: [file, readme, ...responses], ...(note === undefined ? {} : { note }) }
}

/** The kinds of a dataset's current units (edited-away and deleted versions are not exported). */
function currentUnitKinds(db: Db, datasetId: number): UnitKind[] {
  const kinds = db
    .prepare(
      `SELECT DISTINCT u.kind FROM units u JOIN items i ON i.id = u.item_id
       WHERE i.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL`,
    )
    .pluck()
    .all(datasetId)
  return kinds.map((k) => UnitKind.parse(k))
}

/**
 * A layout without a place for the dataset's units or labels would write a file that looks
 * complete and imports back empty; it is refused before any file or folder is made.
 */
function refuseMisfit(
  db: Db,
  dataset: { id: number; name: string; labelSchema: DatasetShape['schema'] },
  format: ExportFormat,
): void {
  const without = db.prepare(
    `SELECT COUNT(*) FROM items i WHERE i.dataset_id = ?
     AND NOT EXISTS (SELECT 1 FROM candidates c WHERE c.item_id = i.id AND c.variant = ?)`,
  )
  const shape: DatasetShape = {
    kinds: currentUnitKinds(db, dataset.id),
    schema: dataset.labelSchema,
    itemsWithout: (variant) => without.pluck().get(dataset.id, variant) as number,
  }
  const misfit = layoutMisfit(format, shape)
  if (misfit === null) return
  throw new ServiceError(
    'bad_input',
    `Dataset "${dataset.name}" cannot be exported as ${format}: ${misfit}. Layouts that carry it: ${layoutsThatFit(shape).join(', ')}.`,
  )
}

function labelCounts(db: Db, datasetId: number): Map<number, number> {
  const rows = labelCountsByAnnotator(db, datasetId)
  return new Map(rows.map((r) => [r.a, r.n]))
}

/** Resolves a dataset by name for the CLI, with a message that lists what exists. */
export function datasetIdByName(ws: Workspace, name: string): number {
  const ds = findDatasetByName(ws.db, name)
  if (ds) return ds.id
  const names = listDatasets(ws.db)
    .map((d) => `"${d.name}"`)
    .sort()
  throw new Error(
    `No dataset named "${name}" in this workspace${names.length ? ` (it has ${names.join(', ')})` : ' (it has none)'}`,
  )
}
