import type { Db } from '../store/connection'
import { now } from '../store/repos/rows'

export type GoldSource = 'adjudicated' | 'import' | 'majority'

export interface GoldVerdict {
  targetId: number
  verdict: string
  source: GoldSource
}

/**
 * Gold per target of a dataset: an adjudicated or imported gold row wins; otherwise the strict
 * majority of the annotators' current labels. Targets with a tie have no gold (they are
 * disputed and wait in the adjudication queue). Only current unit versions count.
 * `excludeAnnotatorId` builds the gold of the *other* annotators (humans as judges).
 */
export function resolveGold(
  db: Db,
  datasetId: number,
  excludeAnnotatorId?: number,
): Map<number, GoldVerdict> {
  const out = new Map<number, GoldVerdict>()
  const stored = db
    .prepare(
      `SELECT g.target_id AS targetId, g.verdict, g.source FROM gold g JOIN targets t ON t.id = g.target_id
       JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL`,
    )
    .all(datasetId) as GoldVerdict[]
  for (const g of stored) out.set(g.targetId, g)
  const counts = db
    .prepare(
      `SELECT l.target_id AS targetId, l.verdict AS verdict, COUNT(*) AS n FROM labels l
       JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? AND l.verdict IS NOT NULL AND u.superseded_by IS NULL AND u.deleted_at IS NULL
         AND l.annotator_id IS NOT ?
       GROUP BY l.target_id, l.verdict ORDER BY l.target_id`,
    )
    .all(datasetId, excludeAnnotatorId ?? null) as { targetId: number; verdict: string; n: number }[]
  let i = 0
  while (i < counts.length) {
    const targetId = counts[i]!.targetId
    let best: string | null = null
    let bestN = 0
    let tie = false
    for (; i < counts.length && counts[i]!.targetId === targetId; i++) {
      const c = counts[i]!
      if (c.n > bestN) {
        best = c.verdict
        bestN = c.n
        tie = false
      } else if (c.n === bestN) tie = true
    }
    if (!out.has(targetId) && best !== null && !tie)
      out.set(targetId, { targetId, verdict: best, source: 'majority' })
  }
  return out
}

/** Records an adjudicator's decision (or imported gold) for one target; it overrides the majority. */
export function setGold(
  db: Db,
  input: {
    targetId: number
    verdict: string
    source: 'adjudicated' | 'import'
    adjudicatorId?: number | null
    note?: string | null
  },
): void {
  db.prepare(
    `INSERT INTO gold (target_id, verdict, source, adjudicator_id, note, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (target_id) DO UPDATE SET verdict = excluded.verdict, source = excluded.source,
       adjudicator_id = excluded.adjudicator_id, note = excluded.note, updated_at = excluded.updated_at`,
  ).run(input.targetId, input.verdict, input.source, input.adjudicatorId ?? null, input.note ?? null, now())
}

/** Which of these targets have a stored gold row (a settled target is no longer disputed). */
export function goldTargetsAmong(db: Db, targetIds: readonly number[]): Set<number> {
  const rows = db
    .prepare('SELECT target_id AS id FROM gold WHERE target_id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(targetIds)) as { id: number }[]
  return new Set(rows.map((g) => g.id))
}

/** Stored gold rows (adjudicated or imported) of a dataset as [target id, verdict], for the metrics. */
export function storedGoldRows(db: Db, datasetId: number): [number, string][] {
  return db
    .prepare(
      'SELECT g.target_id, g.verdict FROM gold g JOIN targets t ON t.id = g.target_id WHERE t.dataset_id = ?',
    )
    .raw()
    .all(datasetId) as [number, string][]
}

/** Writes the gold a file brings with it on import (a target's first gold row). */
export function importedGoldWriter(db: Db): (targetId: number, verdict: string, at: string) => void {
  const insert = db.prepare(
    "INSERT INTO gold (target_id, verdict, source, updated_at) VALUES (?, ?, 'import', ?)",
  )
  return (targetId, verdict, at) => {
    insert.run(targetId, verdict, at)
  }
}
