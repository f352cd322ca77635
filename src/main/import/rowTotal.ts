import { createReadStream } from 'node:fs'
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet'
import type { ImportFormat } from '../../shared/importMapping'

/*
 * How many records a file holds, counted before the import reads it, where that is cheap and
 * exact: Parquet says it in its footer, and a JSONL file has one record per line that is not
 * blank (a newline count, no parsing). CSV may hold newlines inside quoted cells and a JSON array
 * can only be counted by parsing it, so their total stays unknown (null). An import that stops
 * part-way then says "after 4,000 of 10,000 items" (stoppedImports.ts).
 */

const NEWLINE = 0x0a
/** Bytes a blank line may hold: space, tab, vertical tab, form feed, carriage return. */
const BLANK = new Set([0x20, 0x09, 0x0b, 0x0c, 0x0d])
const BOM = [0xef, 0xbb, 0xbf]

export async function recordsInFile(file: string, format: ImportFormat): Promise<number | null> {
  try {
    if (format === 'parquet')
      return Number((await parquetMetadataAsync(await asyncBufferFromFile(file))).num_rows)
    if (format === 'jsonl') return await linesWithContent(file)
  } catch {
    // The import reads the file next and says what is wrong with it; the total is merely unknown.
  }
  return null
}

/** Lines that hold more than blanks: the JSONL reader (sources/index.ts) skips the others. */
async function linesWithContent(file: string): Promise<number> {
  let count = 0
  let content = false
  let first = true
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    let at = 0
    if (first) {
      first = false
      if (BOM.every((b, i) => chunk[i] === b)) at = BOM.length
    }
    while (at < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, at)
      const end = nl === -1 ? chunk.length : nl
      // Most lines start with `{`: the look stops at their first byte.
      for (let i = at; !content && i < end; i++) if (!BLANK.has(chunk[i]!)) content = true
      if (nl === -1) break
      if (content) count++
      content = false
      at = nl + 1
    }
  }
  return content ? count + 1 : count
}
