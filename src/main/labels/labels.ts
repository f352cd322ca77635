import type { Statement } from 'better-sqlite3'
import { z } from 'zod'
import { EvidenceSpan, type Label, type LabelInput } from '../../shared/domain'
import { checkVerdict, LabelSchema } from '../../shared/labelSchemas'
import type { Db } from '../store/connection'
import { now, parseJson } from '../store/repos/rows'
import { stmt } from '../store/statements'

export type LabelAction = 'set' | 'clear' | 'import' | 'merge'

/** A label state a bundle merge brought in: recorded beside its own action (migration 0070). */
export interface MergeMark {
  at: string
  /** The bundle's file name. */
  from: string
  /**
   * The bundle line named no guidelines version (its workspace had none): the label keeps "not
   * known" rather than taking this workspace's latest version, which its annotator never saw.
   */
  versionUnknown?: boolean
}

interface LabelRow {
  target_id: number
  annotator_id: number
  verdict: string | null
  evidence: string
  note: string | null
  seconds: number
  created_at: string
  updated_at: string
}

const Evidence = z.array(EvidenceSpan)

function toLabel(row: LabelRow): Label {
  return {
    targetId: row.target_id,
    annotatorId: row.annotator_id,
    verdict: row.verdict,
    evidence: parseJson(Evidence, row.evidence, 'labels.evidence'),
    note: row.note,
    seconds: row.seconds,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/** Writes labels: the current state per (target, annotator) plus an append-only history row. */
export class LabelWriter {
  private readonly schemaOfTarget
  private readonly current
  private readonly upsert
  private given: ReturnType<Db['prepare']> | undefined
  private readonly write: (row: Record<string, unknown>, guidelinesVersion?: number | null) => void

  constructor(db: Db) {
    this.schemaOfTarget = db.prepare(
      'SELECT d.label_schema AS s FROM targets t JOIN datasets d ON d.id = t.dataset_id WHERE t.id = ?',
    )
    this.current = db.prepare('SELECT * FROM labels WHERE target_id = ? AND annotator_id = ?')
    this.upsert = db.prepare(
      `INSERT INTO labels (target_id, annotator_id, verdict, evidence, note, seconds, created_at, updated_at)
       VALUES (@target_id, @annotator_id, @verdict, @evidence, @note, @seconds, @at, @at)
       ON CONFLICT (target_id, annotator_id) DO UPDATE SET verdict = @verdict, evidence = @evidence,
         note = @note, seconds = @seconds, updated_at = @at`,
    )
    // The migration 0080 triggers stamp a write with the latest guidelines version; a label given
    // under an older one on screen (or on a laptop) takes that version instead, on the label and on
    // its history row. Updating this column alone fires no stamp trigger.
    // Prepared on first use: the migration tests drive this writer on schemas older than 0080.
    const given = () => {
      this.given ??= db.prepare(
        'UPDATE labels SET guidelines_version = @g WHERE target_id = @target_id AND annotator_id = @annotator_id',
      )
      return this.given
    }
    // The history row names only the columns it fills, so the writer runs on every schema version:
    // the merge columns (0070) for a merged label, the guidelines version (0080) when one was given.
    const historyInserts = new Map<string, Statement>()
    const history = (merged: boolean, versioned: boolean) => {
      const key = `${merged}|${versioned}`
      let stmt = historyInserts.get(key)
      if (!stmt) {
        const cols = ['target_id', 'annotator_id', 'verdict', 'evidence', 'note', 'seconds', 'action', 'at']
        if (merged) cols.push('merged_at', 'merged_from')
        if (versioned) cols.push('guidelines_version')
        stmt = db.prepare(
          `INSERT INTO label_history (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`,
        )
        historyInserts.set(key, stmt)
      }
      return stmt
    }
    // One transaction, so the label and its history row reach the disk in a single commit.
    this.write = db.transaction((row: Record<string, unknown>, guidelinesVersion?: number | null) => {
      const { action, merged_at, merged_from, ...label } = row
      this.upsert.run(label)
      const merged = merged_at !== null && merged_at !== undefined
      const versioned = guidelinesVersion !== undefined
      history(merged, versioned).run({
        ...label,
        action,
        ...(merged ? { merged_at, merged_from } : {}),
        // 0 tells migration 0450's trigger "not known": a NULL here would be stamped with the latest.
        ...(versioned ? { guidelines_version: guidelinesVersion ?? 0 } : {}),
      })
      if (versioned)
        given().run({ g: guidelinesVersion, target_id: row.target_id, annotator_id: row.annotator_id })
    })
  }

  /**
   * Saves one label. Fields left out keep their stored value, so saving a verdict does not
   * drop evidence or a note attached earlier. Throws on a verdict the dataset does not allow.
   */
  save(
    input: LabelInput,
    action: LabelAction = input.verdict === null ? 'clear' : 'set',
    at = now(),
    merge: MergeMark | null = null,
  ): Label {
    const schemaRow = this.schemaOfTarget.get(input.targetId) as { s: string } | undefined
    if (!schemaRow) throw new Error(`No target with id ${input.targetId}`)
    if (input.verdict !== null) {
      const problem = checkVerdict(
        parseJson(LabelSchema, schemaRow.s, 'datasets.label_schema'),
        input.verdict,
      )
      if (problem) throw new Error(problem)
    }
    const prev = this.current.get(input.targetId, input.annotatorId) as LabelRow | undefined
    const row = {
      target_id: input.targetId,
      annotator_id: input.annotatorId,
      verdict: input.verdict,
      evidence: JSON.stringify(input.evidence ?? (prev ? JSON.parse(prev.evidence) : [])),
      note: input.note === undefined ? (prev?.note ?? null) : input.note,
      seconds: (prev?.seconds ?? 0) + (input.seconds ?? 0),
      at,
    }
    this.write(
      { ...row, action, merged_at: merge?.at ?? null, merged_from: merge?.from ?? null },
      input.guidelinesVersion ?? (merge?.versionUnknown ? null : undefined),
    )
    return toLabel(this.current.get(input.targetId, input.annotatorId) as LabelRow)
  }
}

export function labelsForTargets(db: Db, targetIds: readonly number[]): Label[] {
  if (targetIds.length === 0) return []
  const stmt = db.prepare('SELECT * FROM labels WHERE target_id IN (SELECT value FROM json_each(?))')
  return (stmt.all(JSON.stringify(targetIds)) as LabelRow[]).map(toLabel)
}

export interface HistoryEntry {
  verdict: string | null
  evidence: EvidenceSpan[]
  note: string | null
  action: string
  at: string
  annotatorId: number
  /** Set where a bundle merge brought this state in: when, and the bundle's file name. */
  mergedAt: string | null
  mergedFrom: string | null
}

export function labelHistory(db: Db, targetId: number, annotatorId?: number): HistoryEntry[] {
  const rows = db
    .prepare(
      `SELECT annotator_id, verdict, evidence, note, action, at, merged_at, merged_from FROM label_history
       WHERE target_id = ? AND (? IS NULL OR annotator_id = ?) ORDER BY id`,
    )
    .all(targetId, annotatorId ?? null, annotatorId ?? null) as {
    annotator_id: number
    verdict: string | null
    evidence: string
    note: string | null
    action: string
    at: string
    merged_at: string | null
    merged_from: string | null
  }[]
  return rows.map((r) => ({
    annotatorId: r.annotator_id,
    verdict: r.verdict,
    evidence: parseJson(Evidence, r.evidence, 'label_history.evidence'),
    note: r.note,
    action: r.action,
    at: r.at,
    mergedAt: r.merged_at,
    mergedFrom: r.merged_from,
  }))
}

/**
 * The next target of a dataset this annotator has not labelled, in reading order (item, then
 * candidate, then unit), starting after `afterTargetId` when given and wrapping around.
 * Walks items in position order and stops at the first with open work, so the cost does not
 * grow with the size of the dataset.
 */
export function nextUnlabelledTarget(
  db: Db,
  datasetId: number,
  annotatorId: number,
  afterTargetId?: number,
): number | null {
  const open = `u.superseded_by IS NULL AND u.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM labels l
    WHERE l.target_id = t.id AND l.annotator_id = @annotatorId AND l.verdict IS NOT NULL)`
  // Prepared once per connection: the annotate view asks for the next unit after every label.
  const inItem = stmt(
    db,
    `SELECT t.id FROM targets t JOIN units u ON u.id = t.unit_id
     WHERE t.dataset_id = @datasetId AND t.item_id = @itemId AND ${open}
       AND (t.candidate_id, u.position, t.id) > (@c, @u, @t)
     ORDER BY t.candidate_id, u.position, t.id LIMIT 1`,
  )
  const nextItem = stmt(
    db,
    `SELECT i.id FROM items i WHERE i.dataset_id = @datasetId AND i.position > @from AND i.position < @to
       AND EXISTS (SELECT 1 FROM targets t JOIN units u ON u.id = t.unit_id
                   WHERE t.dataset_id = @datasetId AND t.item_id = i.id AND ${open})
     ORDER BY i.position LIMIT 1`,
  )
  const start = { c: -1, u: Number.NEGATIVE_INFINITY, t: -1 }
  const firstIn = (itemId: number, after = start) =>
    (inItem.get({ datasetId, annotatorId, itemId, ...after }) as { id: number } | undefined)?.id ?? null
  const itemAfter = (from: number, to: number) =>
    (nextItem.get({ datasetId, annotatorId, from, to }) as { id: number } | undefined)?.id ?? null

  const here =
    afterTargetId === undefined
      ? undefined
      : (stmt(
          db,
          `SELECT t.item_id AS itemId, i.position AS p, t.candidate_id AS c, u.position AS u, t.id AS t FROM targets t
       JOIN items i ON i.id = t.item_id JOIN units u ON u.id = t.unit_id WHERE t.id = ? AND t.dataset_id = ?`,
        ).get(afterTargetId, datasetId) as
          | { itemId: number; p: number; c: number; u: number; t: number }
          | undefined)
  if (!here) {
    const item = itemAfter(-1, Number.POSITIVE_INFINITY)
    return item === null ? null : firstIn(item)
  }
  const sameItem = firstIn(here.itemId, { c: here.c, u: here.u, t: here.t })
  if (sameItem !== null) return sameItem
  const later = itemAfter(here.p, Number.POSITIVE_INFINITY) ?? itemAfter(-1, here.p + 1)
  return later === null ? null : firstIn(later)
}
