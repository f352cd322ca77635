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
 * A string column as few buffers (a worker thread is handed them without a copy): the UTF-8
 * bytes of each value the column shares, one after the other, where each ends, and for each cell
 * the value it holds (-1: null). Value v is bytes[ends[v − 1] .. ends[v]].
 */
export interface PackedUtf8 {
  bytes: Uint8Array
  ends: Int32Array
  index: Int32Array
  encoding: Utf8Column['encoding']
}

/** UTF-8 bytes of well-formed strings written one after another into a buffer that grows. */
class Utf8Pack {
  bytes: Uint8Array
  ends: Int32Array
  count = 0
  used = 0

  constructor(cells: number) {
    this.bytes = new Uint8Array(4096)
    this.ends = new Int32Array(Math.max(16, Math.min(cells, 1024)))
  }

  /** The value's number. */
  add(s: string): number {
    // A UTF-16 code unit never takes more than 3 bytes.
    if (this.bytes.length - this.used < 3 * s.length) {
      const more = new Uint8Array(Math.max(2 * this.bytes.length, this.used + 3 * s.length))
      more.set(this.bytes.subarray(0, this.used))
      this.bytes = more
    }
    this.used += encoder.encodeInto(s, this.bytes.subarray(this.used)).written
    if (this.count === this.ends.length) {
      const more = new Int32Array(2 * this.ends.length)
      more.set(this.ends)
      this.ends = more
    }
    this.ends[this.count] = this.used
    return this.count++
  }

  packed(index: Int32Array, encoding: Utf8Column['encoding']): PackedUtf8 {
    // Trimmed copies: what is handed over holds no spare room.
    return { bytes: this.bytes.slice(0, this.used), ends: this.ends.slice(0, this.count), index, encoding }
  }
}

/** A lone surrogate encodes as U+FFFD, so two such strings could share bytes but not a dictionary entry. */
const wellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed()

/**
 * The column packed, with its encoding, or null when it holds anything but well-formed strings
 * and nulls (the caller then hands the writer the values themselves).
 */
export function packUtf8(values: readonly Cell[]): PackedUtf8 | null {
  const n = values.length
  const index = new Int32Array(n)
  const pack = new Utf8Pack(n)
  if (sampleRejects(values)) {
    // Plain pages: no dictionary to size, so only runs of one value (an item's texts on each
    // of its targets) share their bytes.
    let last: string | null = null
    let lastId = -1
    for (let i = 0; i < n; i++) {
      const v = values[i]
      if (v === null || v === undefined) {
        index[i] = -1
        continue
      }
      if (typeof v !== 'string') return null
      if (v !== last) {
        if (!wellFormed(v)) return null
        last = v
        lastId = pack.add(v)
      }
      index[i] = lastId
    }
    return pack.packed(index, 'PLAIN')
  }
  const seen = new Map<string, number>()
  let dictSize = 0
  let totalSize = 0
  let nonNull = 0
  // The value of the cell before, already in `seen`: a run costs no lookup.
  let last: string | null = null
  let lastId = -1
  for (let i = 0; i < n; i++) {
    const v = values[i]
    if (v === null || v === undefined) {
      index[i] = -1
      continue
    }
    if (typeof v !== 'string') return null
    nonNull++
    totalSize += v.length
    if (v !== last) {
      let id = seen.get(v)
      if (id === undefined) {
        if (!wellFormed(v)) return null
        id = pack.add(v)
        seen.set(v, id)
        dictSize += v.length
      }
      last = v
      lastId = id
    }
    index[i] = lastId
  }
  // The writer keeps a dictionary only if it and its bit-packed indexes halve the plain bytes.
  const bitWidth = Math.ceil(Math.log2(seen.size))
  const indexSize = Math.ceil((nonNull * bitWidth) / 8)
  const plainSize = totalSize + nonNull * PREFIX
  const dictionaryValueSize = dictSize + seen.size * PREFIX
  const plain = 2 * (dictionaryValueSize + indexSize) > plainSize
  return pack.packed(index, plain ? 'PLAIN' : 'RLE_DICTIONARY')
}

/**
 * The cells of a packed column as the writer takes them: one view per value, shared by every
 * cell that holds it (so a value's bytes are one object, as the writer's dictionary expects).
 */
export function unpackUtf8(p: PackedUtf8): Utf8Column {
  const views = new Array<Uint8Array>(p.ends.length)
  let from = 0
  for (let v = 0; v < views.length; v++) {
    const to = p.ends[v]!
    views[v] = p.bytes.subarray(from, to)
    from = to
  }
  const n = p.index.length
  const data = new Array<Uint8Array | null>(n)
  for (let i = 0; i < n; i++) {
    const v = p.index[i]!
    data[i] = v < 0 ? null : views[v]!
  }
  return { data, encoding: p.encoding }
}

/**
 * The column as bytes with its encoding, or null when it holds anything but well-formed strings
 * and nulls (the caller then hands the writer the values themselves).
 */
export function utf8Column(values: readonly Cell[]): Utf8Column | null {
  const packed = packUtf8(values)
  return packed && unpackUtf8(packed)
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
