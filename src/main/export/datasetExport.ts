import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type ColumnSource, fileWriter, parquetWriteRows } from 'hyparquet-writer'
import type { Workspace } from '../app/workspace'
import { labelCountsByAnnotator } from '../labels/reads'
import { projectCardFacts } from '../projects/cardFacts'
import { findDatasetByName, getDataset, listDatasets } from '../store/repos/datasets'
import { agreementSummary } from './agreementSummary'
import { buildCard } from './card'
import { exportRefcheckerRelease, writeResponses } from './responsesExport'
import { csvRecord, writeFileAtomically } from './sink'
import { annotatorColumns, type Feature, type Row, targetFeatures, targetRows } from './targetRows'
import { wikiLayout, wikiRows } from './wikiEvalFacts'

export const EXPORT_FORMATS = [
  'jsonl',
  'csv',
  'parquet',
  'wikievalfacts-csv',
  'wikievalfacts-jsonl',
  'refchecker-json',
] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

export interface ExportOptions {
  datasetId: number
  format: ExportFormat
  outDir: string
  /** Only this annotator's labels (targets layout) or their labels instead of gold (WikiEvalFacts). */
  annotator?: string
}

const DATA_FILES: Record<ExportFormat, string> = {
  jsonl: 'data.jsonl',
  csv: 'data.csv',
  parquet: 'data.parquet',
  'wikievalfacts-csv': 'wikievalfacts.csv',
  'wikievalfacts-jsonl': 'wikievalfacts.jsonl',
  'refchecker-json': '',
}

/** Writes rows as JSON lines or CSV; returns the number of rows and bytes written. */
function writeText(file: string, kind: 'jsonl' | 'csv', features: readonly Feature[], rows: Iterable<Row>) {
  let count = 0
  const names = features.map((f) => f.name)
  const bytes = writeFileAtomically(file, (sink) => {
    if (kind === 'csv') sink.write(csvRecord(names))
    for (const row of rows) {
      if (kind === 'csv') sink.write(csvRecord(names.map((n) => row[n] ?? null)))
      else sink.write(`${JSON.stringify(row, names)}\n`)
      count++
    }
  })
  return { rows: count, bytes }
}

async function writeParquet(file: string, features: readonly Feature[], rows: Iterable<Row>) {
  const partial = `${file}.partial`
  let count = 0
  const counted = (function* () {
    for (const r of rows) {
      count++
      yield r
    }
  })()
  const columns: Omit<ColumnSource, 'data'>[] = features.map((f) => ({
    name: f.name,
    type: f.dtype === 'int32' ? 'INT32' : 'STRING',
    nullable: true,
  }))
  try {
    // A synchronous source and file sink: rows are pulled one row group at a time, so memory
    // is bounded by the group size rather than the dataset (rows repeat ~KB texts, hence the
    // modest group size).
    const pending = parquetWriteRows({
      writer: fileWriter(partial),
      rows: counted,
      columns,
      rowGroupSize: 10_000,
      createdBy: 'FactLab',
    })
    if (pending) await pending
    renameSync(partial, file)
  } catch (error) {
    rmSync(partial, { force: true })
    throw error
  }
  return { rows: count, bytes: statSync(file).size }
}

/**
 * Exports a dataset into `outDir`: the data file in the chosen layout and format, plus a
 * README.md dataset card (Hugging Face YAML header + schema, annotators and agreement).
 */
export async function exportDataset(ws: Workspace, opts: ExportOptions): Promise<{ files: string[] }> {
  const db = ws.db
  const dataset = getDataset(db, opts.datasetId)
  let annotatorId: number | undefined
  if (opts.annotator !== undefined) {
    const found = db.prepare('SELECT id FROM annotators WHERE name = ?').get(opts.annotator) as
      | { id: number }
      | undefined
    if (!found) throw new Error(`No annotator named "${opts.annotator}" in this workspace`)
    annotatorId = found.id
  }
  mkdirSync(opts.outDir, { recursive: true })
  if (opts.format === 'refchecker-json') return exportRefcheckerRelease(ws, dataset.id, opts.outDir)
  const dataFile = DATA_FILES[opts.format]
  const file = join(opts.outDir, dataFile)
  const labelled = annotatorColumns(db, dataset.id)
  const counts = labelCounts(ws, dataset.id)
  let features: Feature[]
  let written: { rows: number; bytes: number }
  let labelSource: string
  if (opts.format.startsWith('wikievalfacts')) {
    const layout = wikiLayout(db, dataset.id)
    features = layout.features
    const rows = wikiRows(db, dataset.id, dataset.labelSchema, layout, annotatorId)
    written = writeText(file, opts.format === 'wikievalfacts-csv' ? 'csv' : 'jsonl', features, rows)
    labelSource =
      opts.annotator === undefined
        ? 'the gold verdict of each fact (adjudicated or imported where recorded, otherwise the annotators’ majority)'
        : `the labels of annotator "${opts.annotator}"`
  } else {
    const columns = annotatorColumns(db, dataset.id, opts.annotator)
    features = targetFeatures(columns)
    const rows = targetRows(db, dataset.id, dataset.labelSchema, columns)
    written =
      opts.format === 'parquet'
        ? await writeParquet(file, features, rows)
        : writeText(file, opts.format === 'csv' ? 'csv' : 'jsonl', features, rows)
    labelSource =
      opts.annotator === undefined
        ? 'one column per annotator, plus the gold verdict and where it comes from'
        : `the column of annotator "${opts.annotator}", plus the gold verdict`
  }
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
      column: opts.format.startsWith('wikievalfacts') ? undefined : a.column,
      labels: counts.get(a.id) ?? 0,
    })),
    agreement: agreementSummary(db, dataset.id, labelled),
    project: projectCardFacts(db, dataset.id),
    labelSource,
    exportedAt: new Date().toISOString(),
  })
  const readme = join(opts.outDir, 'README.md')
  writeFileSync(readme, card)
  const responses = writeResponses(ws, dataset.id, opts.outDir, opts.format === 'csv' ? 'csv' : 'jsonl')
  return { files: [file, readme, ...responses] }
}

function labelCounts(ws: Workspace, datasetId: number): Map<number, number> {
  const rows = labelCountsByAnnotator(ws.db, datasetId)
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
