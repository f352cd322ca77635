import type { Db } from '../store/connection'

/**
 * The words of one FTS5 index, read from the leaf pages of its segments in the index's own
 * %_data table. SQLite's fts5vocab table gives the same words but walks every row of every word
 * to count them (about half a second for 100k items); the leaves say where each word starts in
 * a footer, so only the words are read, never their row lists (a tenth of the time).
 *
 * The layout read here is FTS5's file format (fts5_index.c: "structure record", "segment
 * leaves"), part of the database file and kept by SQLite across versions. Anything that does not
 * look like it (the V2 structure of contentless-delete tables, an offset outside its page) gives
 * null, and the caller asks fts5vocab instead.
 *
 * The leaves can still hold a word whose rows have all been deleted, until SQLite merges its
 * segments: the list is a superset of fts5vocab's. Callers that count words check them.
 */

/** Rowid of a segment's leaf page: segment id in bits 37 up, page number in the low 31 bits. */
const leafRowid = (segment: number, page: number) => segment * 2 ** 37 + page

/** The prefix byte of words of the main index ('0'); prefix indexes use '1', '2', …. */
const MAIN_INDEX = 0x30

class Reader {
  pos = 0
  constructor(readonly buf: Uint8Array) {}
  /** An SQLite varint (big-endian groups of 7 bits, the ninth byte whole). */
  varint(): number {
    const b = this.buf
    let v = 0
    for (let i = 0; i < 8; i++) {
      const byte = b[this.pos++]
      if (byte === undefined) throw new RangeError('varint past the end')
      v = v * 128 + (byte & 0x7f)
      if (byte < 0x80) return v
    }
    const last = b[this.pos++]
    if (last === undefined) throw new RangeError('varint past the end')
    return v * 256 + last
  }
}

interface Segment {
  id: number
  firstPage: number
  lastPage: number
}

/** The segments of the structure record (legacy format), or null for any other format. */
function segments(structure: Uint8Array): Segment[] | null {
  // A V2 record (contentless_delete tables) has 0xFF 0x00 0x00 0x01 after the cookie.
  if (structure.length < 5 || structure[4] === 0xff) return null
  const r = new Reader(structure)
  r.pos = 4
  const levels = r.varint()
  const total = r.varint()
  r.varint() // the write counter
  const out: Segment[] = []
  for (let level = 0; level < levels; level++) {
    r.varint() // segments of this level in an ongoing merge
    const n = r.varint()
    for (let s = 0; s < n; s++) out.push({ id: r.varint(), firstPage: r.varint(), lastPage: r.varint() })
  }
  if (out.length !== total || r.pos !== structure.length) return null
  return out
}

/** The words read so far, each followed by '\n', as UTF-8 bytes; and the word being read. */
class Collector {
  out = new Uint8Array(1 << 16)
  len = 0
  words = 0
  term = new Uint8Array(256)

  growTerm(size: number): void {
    const bigger = new Uint8Array(size * 2)
    bigger.set(this.term)
    this.term = bigger
  }

  growOut(size: number): void {
    const bigger = new Uint8Array((this.len + size) * 2)
    bigger.set(this.out.subarray(0, this.len))
    this.out = bigger
  }
}

/**
 * Varints of at most 4 bytes (every offset and length on a page fits): the value, or -1 past
 * `end` or when longer. Written out in the loop below, not a call per number: this runs for
 * every word of the index, mostly before the JIT has compiled anything.
 */
function readPage(page: Uint8Array, c: Collector): boolean {
  const n = page.length
  if (n < 4) return false
  // Header: offset of the first rowid, then where the footer starts; the footer lists each
  // word's offset on the page, each as the distance from the one before.
  const footer = (page[2]! << 8) | page[3]!
  if (footer > n) return false
  let f = footer
  let offset = 0
  let previous = 0
  let first = true
  while (f < n) {
    let b = page[f++]!
    let v = b & 0x7f
    for (let i = 1; b >= 0x80; i++) {
      if (f >= n || i === 4) return false
      b = page[f++]!
      v = v * 128 + (b & 0x7f)
    }
    offset += v
    let p = offset
    // The first word of a page is whole; each next one keeps a prefix of the one before.
    let keep = 0
    if (!first) {
      if (p >= footer) return false
      b = page[p++]!
      keep = b & 0x7f
      for (let i = 1; b >= 0x80; i++) {
        if (p >= footer || i === 4) return false
        b = page[p++]!
        keep = keep * 128 + (b & 0x7f)
      }
    }
    first = false
    if (p >= footer) return false
    b = page[p++]!
    let fresh = b & 0x7f
    for (let i = 1; b >= 0x80; i++) {
      if (p >= footer || i === 4) return false
      b = page[p++]!
      fresh = fresh * 128 + (b & 0x7f)
    }
    const size = keep + fresh
    if (p + fresh > footer || keep > previous || size === 0) return false
    previous = size
    if (size > c.term.length) c.growTerm(size)
    const term = c.term
    for (let i = 0; i < fresh; i++) term[keep + i] = page[p + i]!
    if (term[0] !== MAIN_INDEX) continue
    if (c.len + size > c.out.length) c.growOut(size)
    const out = c.out
    let at = c.len
    for (let i = 1; i < size; i++) out[at++] = term[i]!
    out[at++] = 0x0a
    c.len = at
    c.words++
  }
  return true
}

/**
 * Every word of `table` (an FTS5 table of the workspace), each followed by '\n', in one string,
 * and how many there are; a word found in several segments appears once per segment. Null when
 * the index is not laid out as this reader expects.
 */
export function leafWords(db: Db, table: string): { text: string; count: number } | null {
  const structure = db.prepare(`SELECT block FROM ${table}_data WHERE id = 10`).pluck().get() as
    | Buffer
    | undefined
  if (!structure) return { text: '', count: 0 }
  let segs: Segment[] | null
  try {
    segs = segments(structure)
  } catch (error) {
    if (error instanceof RangeError) return null
    throw error
  }
  if (segs === null) return null
  const pages = db.prepare(`SELECT block FROM ${table}_data WHERE id BETWEEN ? AND ?`).pluck()
  const c = new Collector()
  for (const seg of segs) {
    // Pages before firstPage were moved on by an ongoing merge; the ones left are in order.
    const leaves = pages.iterate(leafRowid(seg.id, seg.firstPage), leafRowid(seg.id, seg.lastPage))
    for (const page of leaves as Iterable<Buffer>) if (!readPage(page, c)) return null
  }
  return { text: Buffer.from(c.out.buffer, c.out.byteOffset, c.len).toString('utf8'), count: c.words }
}
