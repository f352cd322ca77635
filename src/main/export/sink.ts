import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'

const CHUNK = 1 << 20

/**
 * A buffered, synchronous file writer. Exports read the workspace with statement iterators,
 * and better-sqlite3 refuses writes on a connection while one is open; writing synchronously
 * means no label save can slip in between two rows and fail. Data goes to `<file>.partial`
 * and is renamed into place only when complete, so a failed export never leaves a truncated
 * file that looks finished.
 */
export class FileSink {
  private readonly fd: number
  private readonly partial: string
  private buffer: string[] = []
  private buffered = 0
  bytes = 0

  constructor(private readonly file: string) {
    this.partial = `${file}.partial`
    this.fd = openSync(this.partial, 'w')
  }

  write(text: string): void {
    this.buffer.push(text)
    this.buffered += text.length
    if (this.buffered >= CHUNK) this.flush()
  }

  private flush(): void {
    if (this.buffer.length === 0) return
    const data = Buffer.from(this.buffer.join(''), 'utf8')
    writeSync(this.fd, data)
    this.bytes += data.length
    this.buffer = []
    this.buffered = 0
  }

  /** Flushes, closes and moves the file into place. */
  commit(): void {
    this.finish()
    this.place()
  }

  /** Flushes and closes; the file stays `<file>.partial` until `place`. */
  finish(): void {
    this.flush()
    closeSync(this.fd)
  }

  place(): void {
    renameSync(this.partial, this.file)
  }

  /** Closes and removes the partial file after a failure. */
  abort(): void {
    try {
      closeSync(this.fd)
    } catch {
      // already closed
    }
    rmSync(this.partial, { force: true })
  }
}

/** Runs `fill` against a sink, committing on success and cleaning up on any error. */
export function writeFileAtomically(file: string, fill: (sink: FileSink) => void): number {
  const sink = new FileSink(file)
  try {
    fill(sink)
    sink.commit()
    return sink.bytes
  } catch (error) {
    sink.abort()
    throw error
  }
}

/**
 * Writes several files that only make sense together (the RefChecker layout's one file per
 * variant): each stays `.partial` until all are complete, so an export killed half-way leaves
 * only `.partial` files, which the next export replaces, and never a finished-looking half set.
 */
export function writeFilesTogether(files: readonly { file: string; fill: (sink: FileSink) => void }[]): void {
  const done: FileSink[] = []
  try {
    for (const f of files) {
      const sink = new FileSink(f.file)
      done.push(sink)
      f.fill(sink)
      sink.finish()
    }
  } catch (error) {
    for (const sink of done) sink.abort()
    throw error
  }
  for (const sink of done) sink.place()
}

/** One CSV record (RFC 4180): fields with a comma, quote or line break are quoted. */
export function csvRecord(values: readonly (string | number | null)[]): string {
  return `${values.map(csvField).join(',')}\r\n`
}

function csvField(value: string | number | null): string {
  if (value === null) return ''
  const text = String(value)
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text
}
