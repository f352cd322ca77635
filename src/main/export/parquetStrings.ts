import type { Cell } from './targetColumns'

/**
 * A string column handed to hyparquet-writer already as UTF-8 bytes, each distinct value of a
 * row group encoded once (the writer encodes every cell, though an item's texts repeat on each
 * of its targets), with the encoding the writer would have chosen for the strings named
 * explicitly. The writer then writes the same bytes as for the strings: equal strings are equal
 * byte arrays (the same object here, so its dictionary finds them by identity), and its
 * statistics order byte arrays as it orders strings, by UTF-8 bytes. Only its dictionary choice
 * measures a string by its UTF-16 length and a byte array by its byte length, so that choice is
 * made here, on the strings, as the writer makes it (hyparquet-writer 0.17 `useDictionary`).
 */
export interface Utf8Column {
  data: (Uint8Array | null)[]
  encoding: 'PLAIN' | 'RLE_DICTIONARY'
}

// useDictionary's sample size, rejection ratio and BYTE_ARRAY length prefix.
const SAMPLE = 1000
const SAMPLE_REJECTION = 0.9
const PREFIX = 4

const encoder = new TextEncoder()

/**
 * UTF-8 bytes of well-formed strings, written into shared chunks and handed out as views: about
 * half the cost of `encode`, which allocates a buffer per string. A chunk lives as long as a
 * view into it (a row group's columns), then goes with them.
 */
const CHUNK = 1 << 20
let chunk = new Uint8Array(0)
let used = 0
function utf8(s: string): Uint8Array {
  // A UTF-16 code unit never takes more than 3 bytes.
  if (chunk.length - used < 3 * s.length) {
    chunk = new Uint8Array(Math.max(CHUNK, 3 * s.length))
    used = 0
  }
  const { written } = encoder.encodeInto(s, chunk.subarray(used))
  const bytes = chunk.subarray(used, used + written)
  used += written
  return bytes
}

/** A lone surrogate encodes as U+FFFD, so two such strings could share bytes but not a dictionary entry. */
const wellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed()

/**
 * The column as bytes with its encoding, or null when it holds anything but well-formed strings
 * and nulls (the caller then hands the writer the values themselves).
 */
export function utf8Column(values: readonly Cell[]): Utf8Column | null {
  const n = values.length
  const data = new Array<Uint8Array | null>(n)
  if (sampleRejects(values)) {
    // Plain pages: no dictionary to size, so only runs of one value (an item's texts on each
    // of its targets) share their bytes.
    let last: string | null = null
    let lastBytes: Uint8Array | null = null
    for (let i = 0; i < n; i++) {
      const v = values[i]
      if (v === null || v === undefined) {
        data[i] = null
        continue
      }
      if (typeof v !== 'string') return null
      if (v !== last) {
        if (!wellFormed(v)) return null
        last = v
        lastBytes = utf8(v)
      }
      data[i] = lastBytes
    }
    return { data, encoding: 'PLAIN' }
  }
  const seen = new Map<string, Uint8Array>()
  let dictSize = 0
  let totalSize = 0
  let nonNull = 0
  // The value of the cell before, already in `seen`: a run costs no lookup.
  let last: string | null = null
  let lastBytes: Uint8Array | null = null
  for (let i = 0; i < n; i++) {
    const v = values[i]
    if (v === null || v === undefined) {
      data[i] = null
      continue
    }
    if (typeof v !== 'string') return null
    nonNull++
    totalSize += v.length
    if (v !== last) {
      let bytes = seen.get(v)
      if (bytes === undefined) {
        if (!wellFormed(v)) return null
        bytes = utf8(v)
        seen.set(v, bytes)
        dictSize += v.length
      }
      last = v
      lastBytes = bytes
    }
    data[i] = lastBytes
  }
  // The writer keeps a dictionary only if it and its bit-packed indexes halve the plain bytes.
  const bitWidth = Math.ceil(Math.log2(seen.size))
  const indexSize = Math.ceil((nonNull * bitWidth) / 8)
  const plainSize = totalSize + nonNull * PREFIX
  const dictionaryValueSize = dictSize + seen.size * PREFIX
  const plain = 2 * (dictionaryValueSize + indexSize) > plainSize
  return { data, encoding: plain ? 'PLAIN' : 'RLE_DICTIONARY' }
}

/** useDictionary's first test: distinct bytes in a sample spread over the column. */
function sampleRejects(values: readonly Cell[]): boolean {
  const n = values.length
  const sampleSize = Math.min(n, SAMPLE)
  const sizes = new Map<Cell | undefined, number>()
  let dictionary = 0
  let total = 0
  // Neighbouring samples often fall in one run of a value: no lookup for those.
  let last: Cell | undefined
  let lastSize = -1
  for (let i = 0; i < sampleSize; i++) {
    const at = sampleSize === 1 ? 0 : Math.floor((i * (n - 1)) / (sampleSize - 1))
    const v = values[at]
    if (lastSize >= 0 && v === last) {
      total += lastSize
      continue
    }
    let size = sizes.get(v)
    if (size === undefined) {
      size = typeof v === 'string' ? v.length + PREFIX : v === null || v === undefined ? 0 : PREFIX
      sizes.set(v, size)
      dictionary += size
    }
    total += size
    last = v
    lastSize = size
  }
  return !total || dictionary / total > SAMPLE_REJECTION
}
