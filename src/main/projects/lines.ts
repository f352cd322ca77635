import { closeSync, openSync, readSync } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'

/**
 * The non-empty lines of a text file, read a megabyte at a time: a package of a large dataset is
 * opened inside one SQLite transaction (synchronous), without ever holding the file whole.
 */
export function* fileLines(file: string, chunkBytes = 1 << 20): Generator<{ line: string; number: number }> {
  const fd = openSync(file, 'r')
  const decoder = new StringDecoder('utf8')
  const buf = Buffer.alloc(chunkBytes)
  let rest = ''
  let number = 0
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, chunkBytes, null)
      const text = rest + (n > 0 ? decoder.write(buf.subarray(0, n)) : decoder.end())
      const parts = text.split(/\r?\n/)
      rest = n > 0 ? (parts.pop() ?? '') : ''
      for (const line of parts) {
        number++
        if (line.trim() !== '') yield { line, number }
      }
      if (n === 0) return
    }
  } finally {
    closeSync(fd)
  }
}
