import { renameSync, rmSync, statSync } from 'node:fs'
import type { ExportPace } from './exportPace'
import { type ColumnSpec, packBatch } from './parquetBatch'
import { ParquetFile } from './parquetFile'
import { startBackgroundWriter } from './parquetInBackground'
import { csvRecord, FileSink } from './sink'
import type { Cell } from './targetColumns'
import type { Feature, Row } from './targetRows'

/** Rows between two breaths of a text export: about what one column batch holds. */
const ROWS_PER_BREATH = 2000

/**
 * Writes rows as JSON lines or CSV to `<file>.partial`, renamed into place only when complete (a
 * failed or cancelled export leaves nothing that looks finished); returns rows and bytes written.
 */
export async function writeText(
  file: string,
  kind: 'jsonl' | 'csv',
  features: readonly Feature[],
  rows: Iterable<Row>,
  pace: ExportPace,
): Promise<{ rows: number; bytes: number }> {
  let count = 0
  const names = features.map((f) => f.name)
  const sink = new FileSink(file)
  try {
    if (kind === 'csv') sink.write(csvRecord(names))
    for (const row of rows) {
      if (kind === 'csv') sink.write(csvRecord(names.map((n) => row[n] ?? null)))
      else sink.write(`${JSON.stringify(row, names)}\n`)
      if (++count % ROWS_PER_BREATH === 0) await pace.breathe()
    }
    sink.commit()
  } catch (error) {
    sink.abort()
    throw error
  }
  return { rows: count, bytes: sink.bytes }
}

/**
 * Writes the column batches as Parquet, one row group per batch (parquetFile.ts), string columns
 * as UTF-8 bytes encoded once per distinct value (parquetStrings.ts), to `<file>.partial`, renamed
 * into place only when complete; a breath between batches. With `background`, a worker thread
 * writes each batch while this thread reads the next (parquetInBackground.ts); the file is the
 * same byte for byte either way.
 */
export async function writeParquet(
  file: string,
  features: readonly Feature[],
  batches: Iterable<Cell[][]>,
  pace: ExportPace,
  background = false,
): Promise<{ rows: number; bytes: number }> {
  const partial = `${file}.partial`
  let count = 0
  const spec: ColumnSpec[] = features.map((f) => ({
    name: f.name,
    type: f.dtype === 'int32' ? 'INT32' : 'STRING',
    nullable: true,
  }))
  const worker = background ? startBackgroundWriter(partial, spec) : null
  try {
    const out = worker ? null : new ParquetFile(partial, spec)
    for (const cols of batches) {
      count += cols[0]!.length
      if (worker) await worker.write(cols)
      else out!.write(packBatch(spec, cols).columns)
      await pace.breathe()
    }
    if (worker) await worker.finish()
    else out!.finish()
    renameSync(partial, file)
  } catch (error) {
    await worker?.stop()
    rmSync(partial, { force: true })
    throw error
  }
  return { rows: count, bytes: statSync(file).size }
}
