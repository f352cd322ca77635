import { type ColumnSource, fileWriter, ParquetWriter, schemaFromColumnData } from 'hyparquet-writer'
import { type ColumnSpec, type PackedColumn, unpackBatch } from './parquetBatch'

/**
 * A Parquet file written batch by batch, one row group per batch, straight from the column
 * arrays (what parquetWriteRows does after turning row objects back into columns), through a
 * synchronous file sink, so memory is bounded by one batch rather than the dataset. The schema
 * comes from the first batch; a file given no batch is a valid empty file of the declared columns.
 */
export class ParquetFile {
  private pq: ParquetWriter | undefined
  private readonly writer

  constructor(
    file: string,
    private readonly spec: readonly ColumnSpec[],
  ) {
    this.writer = fileWriter(file)
  }

  private open(data: ColumnSource[]): ParquetWriter {
    this.pq ??= new ParquetWriter({
      writer: this.writer,
      schema: schemaFromColumnData({ columnData: data }),
      createdBy: 'FactLab',
    })
    return this.pq
  }

  /** Writes a packed batch as a row group. */
  write(columns: readonly PackedColumn[]): void {
    const data = unpackBatch(this.spec, columns)
    const rows = data[0]?.data.length ?? 0
    void this.open(data).write({ columnData: data, rowGroupSize: rows })
  }

  finish(): void {
    if (!this.pq) {
      const data = unpackBatch(
        this.spec,
        this.spec.map(() => ({ values: [] })),
      )
      // The writer wants a positive row group size even for no rows.
      void this.open(data).write({ columnData: data, rowGroupSize: 10_000 })
    }
    void this.pq!.finish()
  }
}
