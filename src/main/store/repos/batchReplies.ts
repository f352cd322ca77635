import { deflateRawSync, inflateRawSync } from 'node:zlib'
import type { Db } from '../connection'
import { stmt } from '../statements'

/**
 * All SQL on run_batch_replies (migration 0150): the replies of a batch ingested together, kept
 * as one compressed row per chunk, each line the text a synchronous call keeps in
 * `run_calls.response`.
 */

/** Level 1: as small as the default level on replies (they repeat), at less than half the CPU. */
const LEVEL = 1

/** Stores one chunk of replies (texts without newlines: JSON.stringify never writes one). */
export function insertReplyChunk(db: Db, batchId: number, texts: readonly string[]): number {
  const blob = deflateRawSync(Buffer.from(texts.join('\n'), 'utf8'), { level: LEVEL })
  return Number(
    stmt(db, 'INSERT INTO run_batch_replies (batch_id, replies) VALUES (?, ?)').run(batchId, blob)
      .lastInsertRowid,
  )
}

/** Chunks kept inflated per connection, the most recently read last. */
const KEPT = 16

/**
 * The chunks read last, by connection: a pass or an export reads a run's replies mostly in the
 * order their requests went out, which is how each chunk's replies are ordered, so each chunk is
 * inflated about once. The stored bytes are compared before the lines are reused, so a chunk id
 * taken again after a rollback can never be misread.
 */
const recent = new WeakMap<Db, Map<number, { blob: Buffer; lines: string[] }>>()

/** The reply text a call names by (chunk, line); null if the chunk is gone. */
export function replyText(db: Db, chunk: number, line: number): string | null {
  const blob = stmt(db, 'SELECT replies FROM run_batch_replies WHERE id = ?').pluck().get(chunk) as
    | Buffer
    | undefined
  if (!blob) return null
  let kept = recent.get(db)
  if (!kept) {
    kept = new Map()
    recent.set(db, kept)
  }
  let lines = kept.get(chunk)
  kept.delete(chunk)
  if (!lines?.blob.equals(blob)) lines = { blob, lines: inflateRawSync(blob).toString('utf8').split('\n') }
  kept.set(chunk, lines)
  if (kept.size > KEPT) kept.delete(kept.keys().next().value as number)
  return lines.lines[line] ?? null
}

/** A call's reply text, wherever it is kept: its own column, or its batch's chunk of replies. */
export function callResponse(
  db: Db,
  row: { response: string | null; reply_chunk: number | null; reply_line: number | null },
): string | null {
  if (row.response !== null || row.reply_chunk === null || row.reply_line === null) return row.response
  return replyText(db, row.reply_chunk, row.reply_line)
}
