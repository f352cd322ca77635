import { createReadStream } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import { extname } from 'node:path'
import { type Duplex, pipeline } from 'node:stream'
import { parse as parseCsv } from 'csv-parse'
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet'
import streamArray from 'stream-json/streamers/stream-array.js'
import type { ImportFormat } from '../../../shared/importMapping'
import { countOf } from '../../../shared/plural'
import { describe, ImportError } from '../errors'
import type { Row } from '../normalized'
import { readLines, utf8Guard, wholeLines } from './lines'

/**
 * Row sources, one per format, all streamed: only the current row (or Parquet row group) is
 * held in memory. Problems confined to one row come out as `bad` events, so the importer can
 * refuse the file or skip that row; problems that make the rest unreadable throw ImportError.
 */
export type SourceEvent =
  | { kind: 'header'; columns: string[] }
  | { kind: 'row'; line: number; row: Row }
  /** `column`: where on the line the problem is, when the parser says (JSONL). */
  | { kind: 'bad'; line: number; column?: number; error: string }

/**
 * What `line` counts: physical lines (text formats), records of a JSON array, or Parquet rows.
 * A JSON array's record is not called a line: it may span many, or share one with others.
 */
export type PlaceUnit = 'line' | 'record' | 'row'

/** "line 4, column 12", "record 2 of the JSON array", "row 7": how reports name a place in a file. */
export function placeText(unit: PlaceUnit, n: number, column?: number): string {
  if (unit === 'record') return `record ${n} of the JSON array`
  return column === undefined ? `${unit} ${n}` : `${unit} ${n}, column ${column}`
}

export interface RowSource {
  format: ImportFormat
  unit: PlaceUnit
  events: AsyncGenerator<SourceEvent>
}

async function head(file: string, bytes = 65536): Promise<Buffer> {
  const fh = await open(file, 'r')
  try {
    const buf = Buffer.alloc(bytes)
    const { bytesRead } = await fh.read(buf, 0, bytes, 0)
    return buf.subarray(0, bytesRead)
  } finally {
    await fh.close()
  }
}

/** The format from the extension, checked against (or, if unknown, guessed from) the content. */
export async function detectFormat(file: string): Promise<ImportFormat> {
  const start = await head(file, 4096)
  if (start.subarray(0, 4).toString('latin1') === 'PAR1') return 'parquet'
  const ext = extname(file).toLowerCase()
  if (ext === '.parquet') return 'parquet'
  if (ext === '.tsv' || ext === '.tab') return 'tsv'
  if (ext === '.csv') return 'csv'
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl'
  const text = start
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
  if (text.startsWith('[')) return 'json'
  if (text.startsWith('{')) {
    // A .json file may hold one object per line, as many dataset dumps do.
    const first = text.split('\n', 1)[0]!.trim()
    try {
      JSON.parse(first)
      return 'jsonl'
    } catch {
      return ext === '.json' ? 'json' : 'jsonl'
    }
  }
  if (ext === '.json') return 'json'
  const firstLine = text.split('\n', 1)[0] ?? ''
  return firstLine.includes('\t') ? 'tsv' : 'csv'
}

export interface OpenRowsOptions {
  /**
   * The file is only the start of a longer one (the import dialog's preview in browser mode sends
   * the first megabyte): its last line is cut wherever the part ended, so it is left out, and a
   * record or quoted cell still open at the end is where reading stops, not a fault of the file.
   */
  partial?: boolean
}

export async function openRows(
  file: string,
  format?: ImportFormat,
  opts: OpenRowsOptions = {},
): Promise<RowSource> {
  const partial = opts.partial ?? false
  let size: number
  try {
    size = (await stat(file)).size
  } catch (error) {
    throw new ImportError(
      `${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    )
  }
  if (size === 0) throw new ImportError(`${file}: the file is empty`)
  const fmt = format ?? (await detectFormat(file))
  if (fmt === 'jsonl') return { format: fmt, unit: 'line', events: jsonlRows(file, partial) }
  if (fmt === 'json') return { format: fmt, unit: 'record', events: jsonArrayRows(file, partial) }
  if (fmt === 'parquet') return { format: fmt, unit: 'row', events: parquetRows(file) }
  // TSV as the paraphrase corpora ship it has no quoting: a sentence may open with a quote
  // mark and close it mid-field. Quoted fields (and newlines inside them) are CSV's.
  if (fmt === 'tsv') return { format: fmt, unit: 'line', events: csvRows(file, '\t', false, partial) }
  const delimiter = sniffDelimiter((await head(file)).toString('utf8'))
  return { format: fmt, unit: 'line', events: csvRows(file, delimiter, true, partial) }
}

/**
 * file → UTF-8 check → parser; an error anywhere surfaces when the parser's output is read. A
 * part of a file stops at its last newline: what follows is a line cut short.
 */
function chain(file: string, last: Duplex, partial = false): Duplex {
  const read = createReadStream(file, { highWaterMark: 1 << 20 })
  if (partial) return pipeline(read, wholeLines(), utf8Guard(file), last, () => {})
  return pipeline(read, utf8Guard(file), last, () => {})
}

async function* jsonlRows(file: string, partial: boolean): AsyncGenerator<SourceEvent> {
  for await (const l of readLines(file, { partial })) {
    if ('error' in l) {
      yield { kind: 'bad', line: l.line, error: l.error }
      continue
    }
    const text = l.line === 1 ? l.text.replace(/^\uFEFF/, '') : l.text
    if (text.trim() === '') continue
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      yield { kind: 'bad', line: l.line, ...jsonProblem((error as Error).message, text) }
      continue
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      yield { kind: 'bad', line: l.line, error: `expected a JSON object, found ${describe(value)}` }
    else yield { kind: 'row', line: l.line, row: value as Row }
  }
}

/**
 * A JSONL line's parse error with its column taken out of the parser's words: V8 counts the
 * line's text as one input and says "at position 939 (line 1 column 940)", whose "line 1" is not
 * the file's line the report names. A line that stops before its JSON does gets no position
 * from V8; its column is where the line ends, which is where the JSON broke off.
 */
export function jsonProblem(message: string, text?: string): { column?: number; error: string } {
  if (/^Unexpected end of JSON input$/.test(message) && text !== undefined)
    return { column: text.length + 1, error: 'invalid JSON (the line ends before its JSON does)' }
  const m = / at position (\d+)(?: \(line \d+ column \d+\))?$/.exec(message)
  if (!m) return { error: `invalid JSON (${message})` }
  return { column: Number(m[1]) + 1, error: `invalid JSON (${message.slice(0, m.index)})` }
}

/** Whether a .json file opens with `[`: one that does not is no JSON array, whatever follows. */
async function startsAsArray(file: string): Promise<boolean> {
  const start = (await head(file, 4096))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
  return start.startsWith('[')
}

async function* jsonArrayRows(file: string, partial: boolean): AsyncGenerator<SourceEvent> {
  const stream = chain(file, streamArray.withParserAsStream(), partial)
  let index = 0
  try {
    for await (const item of stream as AsyncIterable<{ key: number; value: unknown }>) {
      index = item.key + 1
      const value = item.value
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        yield { kind: 'bad', line: index, error: `expected a JSON object, found ${describe(value)}` }
      else yield { kind: 'row', line: index, row: value as Row }
    }
  } catch (error) {
    if (error instanceof ImportError) throw error
    // A part ends inside a record (or the array): the records before it are all it holds.
    if (partial && index > 0) return
    const msg = (error as Error).message
    if (/top-level object should be an array/i.test(msg) || (index === 0 && !(await startsAsArray(file))))
      throw new ImportError(`${file}: expected a JSON array of objects (use JSONL for one object per line)`)
    throw new ImportError(`${file}, ${placeText('record', index + 1)}: invalid or truncated JSON (${msg})`)
  } finally {
    stream.destroy()
  }
}

/** The delimiter that splits the first line into the most columns, outside quotes. */
export function sniffDelimiter(sample: string): string {
  const line = sample.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? ''
  const outside = line.replace(/"[^"]*"/g, '')
  let best = ','
  let bestCount = 0
  for (const d of [',', '\t', ';', '|']) {
    const n = outside.split(d).length - 1
    if (n > bestCount) {
      best = d
      bestCount = n
    }
  }
  return best
}

async function* csvRows(
  file: string,
  delimiter: string,
  quoted: boolean,
  partial: boolean,
): AsyncGenerator<SourceEvent> {
  const parser = parseCsv({
    bom: true,
    delimiter,
    quote: quoted ? '"' : null,
    info: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
  })
  const stream = chain(file, parser, partial)
  let header: string[] | null = null
  let lastLine = 0
  try {
    for await (const rec of stream as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const fields = rec.record
      const newlines = fields.reduce((n, f) => n + (f.match(/\n/g)?.length ?? 0), 0)
      const line = rec.info.lines - newlines
      lastLine = rec.info.lines
      if (header === null) {
        header = fields.map((h, i) => h.trim() || `column_${i + 1}`)
        const dup = header.find((h, i) => header!.indexOf(h) !== i)
        if (dup !== undefined)
          throw new ImportError(`${file}, line ${line}: the header names column "${dup}" twice`)
        yield { kind: 'header', columns: header }
        continue
      }
      if (fields.length !== header.length) {
        yield {
          kind: 'bad',
          line,
          error: `has ${countOf(fields.length, 'field')}, the header has ${header.length} (delimiter ${JSON.stringify(delimiter)})`,
        }
        continue
      }
      const row: Row = {}
      for (let i = 0; i < header.length; i++) row[header[i]!] = fields[i]
      yield { kind: 'row', line, row }
    }
  } catch (error) {
    if (error instanceof ImportError) throw error
    const e = error as Error & { lines?: number; code?: string }
    // A part ends inside a quoted cell (a long text with newlines): the rows before it are whole.
    if (partial && e.code === 'CSV_QUOTE_NOT_CLOSED') return
    throw new ImportError(
      `${file}, line ${e.lines ?? lastLine + 1}: ${e.message.replace(/^Invalid \w+: /, '')}`,
    )
  } finally {
    stream.destroy()
  }
}

/** Parquet values as JSON-like data: 64-bit integers become numbers (or text when too large). */
function plain(value: unknown): unknown {
  if (typeof value === 'bigint')
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(-Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString()
  if (value instanceof Date) return value.toISOString()
  if (value instanceof Uint8Array) return new TextDecoder().decode(value)
  if (Array.isArray(value)) return value.map(plain)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
  return value
}

async function* parquetRows(file: string): AsyncGenerator<SourceEvent> {
  const buffer = await asyncBufferFromFile(file)
  let metadata: Awaited<ReturnType<typeof parquetMetadataAsync>>
  try {
    metadata = await parquetMetadataAsync(buffer)
  } catch (error) {
    throw new ImportError(`${file}: not a readable Parquet file (${(error as Error).message})`)
  }
  const columns = parquetSchema(metadata).children.map((c) => c.element.name)
  yield { kind: 'header', columns }
  let rowStart = 0
  // One row group at a time: a Hugging Face shard is read without holding it whole.
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows)
    let rows: Record<string, unknown>[]
    try {
      rows = await parquetReadObjects({ file: buffer, metadata, rowStart, rowEnd })
    } catch (error) {
      throw new ImportError(
        `${file}, rows ${rowStart + 1}–${rowEnd}: cannot be read (${(error as Error).message})`,
      )
    }
    for (let i = 0; i < rows.length; i++)
      yield { kind: 'row', line: rowStart + i + 1, row: plain(rows[i]) as Row }
    rowStart = rowEnd
  }
}
