import { createReadStream } from 'node:fs'
import { Transform, type TransformCallback } from 'node:stream'
import { ImportError } from '../errors'

/** One line of a text file, decoded, or the reason it could not be. */
export type Line = { line: number; text: string } | { line: number; error: string }

const NEWLINE = 0x0a

/**
 * Streams a file line by line as UTF-8, keeping only the current line in memory. A line that
 * is not valid UTF-8 is reported as that line's error, so it can be skipped like any bad row.
 */
export async function* readLines(file: string, opts: { partial?: boolean } = {}): AsyncGenerator<Line> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })
  let pending: Buffer[] = []
  let line = 0
  const emit = (bytes: Buffer): Line => {
    line++
    let end = bytes.length
    if (end > 0 && bytes[end - 1] === 0x0d) end--
    try {
      return { line, text: decoder.decode(bytes.subarray(0, end)) }
    } catch {
      return { line, error: 'not valid UTF-8 text' }
    }
  }
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    let start = 0
    for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, nl)
      if (pending.length > 0) {
        pending.push(piece)
        yield emit(Buffer.concat(pending))
        pending = []
      } else yield emit(piece)
      start = nl + 1
    }
    if (start < chunk.length) pending.push(chunk.subarray(start))
  }
  // The start of a longer file ends wherever it was cut: its unfinished last line is no line.
  if (pending.length > 0 && !opts.partial) yield emit(Buffer.concat(pending))
}

/**
 * Passes the bytes up to the last newline and drops the rest: the start of a longer file, cut
 * wherever its size ran out (inside a row, or inside a UTF-8 character), read as whole lines.
 */
export function wholeLines(): Transform {
  let held: Buffer[] = []
  return new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      const nl = chunk.lastIndexOf(NEWLINE)
      if (nl === -1) {
        held.push(chunk)
        done()
        return
      }
      const out = Buffer.concat([...held, chunk.subarray(0, nl + 1)])
      held = [chunk.subarray(nl + 1)]
      done(null, out)
    },
    flush(done: TransformCallback) {
      held = []
      done()
    },
  })
}

/**
 * Passes bytes through unchanged while checking they are UTF-8, so a CSV or JSON file with a
 * stray Latin-1 byte is refused with the line it is on instead of being silently mangled.
 */
export function utf8Guard(file: string): Transform {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let line = 1
  return new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      try {
        decoder.decode(chunk, { stream: true })
      } catch {
        done(
          new ImportError(`${file}, line ${line + countLines(chunk, firstBad(chunk))}: not valid UTF-8 text`),
        )
        return
      }
      line += countLines(chunk, chunk.length)
      done(null, chunk)
    },
    flush(done: TransformCallback) {
      try {
        decoder.decode()
        done()
      } catch {
        done(new ImportError(`${file}, line ${line}: the file ends inside a UTF-8 character`))
      }
    },
  })
}

function countLines(chunk: Buffer, upTo: number): number {
  let n = 0
  for (let i = chunk.indexOf(NEWLINE); i !== -1 && i < upTo; i = chunk.indexOf(NEWLINE, i + 1)) n++
  return n
}

/** Offset of the first byte that breaks UTF-8 in this chunk (approximate at chunk edges). */
function firstBad(chunk: Buffer): number {
  let lo = 0
  let hi = chunk.length
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(chunk.subarray(0, mid), { stream: true })
      lo = mid
    } catch {
      hi = mid
    }
  }
  return lo
}
