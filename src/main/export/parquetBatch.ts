import type { ColumnSource } from 'hyparquet-writer'
import { type PackedUtf8, packUtf8, unpackUtf8 } from './parquetStrings'
import type { Cell } from './targetColumns'

/** A column of the file as declared: its name and type, every column nullable. */
export type ColumnSpec = Omit<ColumnSource, 'data'>

/**
 * One batch of rows on its way to the writer: each string column packed (parquetStrings.ts),
 * any other column (numbers, or strings the packing leaves as they are) as its values.
 */
export type PackedColumn = { utf8: PackedUtf8 } | { values: Cell[] }

/** The batch's columns packed, and the buffers a worker can be handed without a copy. */
export function packBatch(
  spec: readonly ColumnSpec[],
  cols: readonly Cell[][],
): { columns: PackedColumn[]; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = []
  const columns = spec.map((s, c): PackedColumn => {
    const utf8 = s.type === 'STRING' ? packUtf8(cols[c]!) : null
    if (!utf8) return { values: cols[c]! }
    transfer.push(
      utf8.bytes.buffer as ArrayBuffer,
      utf8.ends.buffer as ArrayBuffer,
      utf8.index.buffer as ArrayBuffer,
    )
    return { utf8 }
  })
  return { columns, transfer }
}

/** The batch as the writer takes it. */
export function unpackBatch(spec: readonly ColumnSpec[], columns: readonly PackedColumn[]): ColumnSource[] {
  return spec.map((s, c) => {
    const p = columns[c]!
    return 'utf8' in p ? { ...s, ...unpackUtf8(p.utf8) } : { ...s, data: p.values }
  })
}

/** The rows in a packed batch. */
export const batchRows = (columns: readonly PackedColumn[]): number => {
  const p = columns[0]
  return p === undefined ? 0 : 'utf8' in p ? p.utf8.index.length : p.values.length
}
