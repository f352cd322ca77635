import { renameSync, rmSync, statSync } from 'node:fs'
import { type ColumnSource, fileWriter, ParquetWriter, schemaFromColumnData } from 'hyparquet-writer'
import type { ExportPace } from './exportPace'
import { utf8Column } from './parquetStrings'
import { csvRecord, FileSink } from './sink'
import { BATCH_ROWS, type Cell } from './targetColumns'
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
 * Writes the column batches as Parquet, one row group per batch, straight from the column
 * arrays (what parquetWriteRows does after turning row objects back into columns), string
 * columns as UTF-8 bytes encoded once per distinct value (parquetStrings.ts). A synchronous
 * file sink, so memory is bounded by one batch rather than the dataset; a breath between batches.
 */
export async function writeParquet(
  file: string,
  features: readonly Feature[],
  batches: Iterable<Cell[][]>,
  pace: ExportPace,
): Promise<{ rows: number; bytes: number }> {
  const partial = `${file}.partial`
  let count = 0
  const spec: Omit<ColumnSource, 'data'>[] = features.map((f) => ({
    name: f.name,
    type: f.dtype === 'int32' ? 'INT32' : 'STRING',
    nullable: true,
  }))
  const columnData = (cols: Cell[][]): ColumnSource[] =>
    spec.map((s, c) => {
      const strings = s.type === 'STRING' ? utf8Column(cols[c]!) : null
      return strings ? { ...s, ...strings } : { ...s, data: cols[c]! }
    })
  const writer = fileWriter(partial)
  try {
    let pq: ParquetWriter | undefined
    const open = (data: ColumnSource[]) =>
      new ParquetWriter({ writer, schema: schemaFromColumnData({ columnData: data }), createdBy: 'FactLab' })
    for (const cols of batches) {
      const data = columnData(cols)
      pq ??= open(data)
      const size = cols[0]!.length
      count += size
      pq.write({ columnData: data, rowGroupSize: size })
      await pace.breathe()
    }
    if (!pq) {
      // No rows: a valid empty file with the declared columns.
      const data = columnData(spec.map(() => []))
      pq = open(data)
      pq.write({ columnData: data, rowGroupSize: BATCH_ROWS })
    }
    pq.finish()
    renameSync(partial, file)
  } catch (error) {
    rmSync(partial, { force: true })
    throw error
  }
  return { rows: count, bytes: statSync(file).size }
}
