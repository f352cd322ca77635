import { isDefaultGoldRule } from '../../shared/goldRule'
import { toBinary } from '../../shared/labelSchemas'
import type { Db } from '../store/connection'
import { datasetSettings, getDataset } from '../store/repos/datasets'
import { now } from '../store/repos/rows'
import { compileGoldRule } from './rules'

/** `annotator`: the dataset's gold rule names one annotator whose labels are the gold. */
export type GoldSource = 'adjudicated' | 'import' | 'majority' | 'annotator'

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
  const rule = datasetSettings(db, datasetId).goldRule
  if (!isDefaultGoldRule(rule)) {
    ruledGold(db, datasetId, out, excludeAnnotatorId)
    return out
  }
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

/** Gold under a dataset's stated rule (labels/rules.ts) for targets without a stored gold row. */
function ruledGold(
  db: Db,
  datasetId: number,
  out: Map<number, GoldVerdict>,
  exclude: number | undefined,
): void {
  const schema = getDataset(db, datasetId).labelSchema
  const rows = db
    .prepare(
      `SELECT l.target_id AS targetId, l.annotator_id AS annotatorId, l.verdict FROM labels l
       JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? AND l.verdict IS NOT NULL AND u.superseded_by IS NULL AND u.deleted_at IS NULL
       ORDER BY l.target_id`,
    )
    .all(datasetId) as { targetId: number; annotatorId: number; verdict: string }[]
  const values: string[] = []
  const codeOf = new Map<string, number>()
  const code = (v: string) => {
    let c = codeOf.get(v)
    if (c === undefined) {
      c = values.push(v) - 1
      codeOf.set(v, c)
    }
    return c
  }
  const byTarget = new Map<number, { codes: number[]; annotators: number[] }>()
  for (const r of rows) {
    let e = byTarget.get(r.targetId)
    if (!e) {
      e = { codes: [], annotators: [] }
      byTarget.set(r.targetId, e)
    }
    e.codes.push(code(r.verdict))
    e.annotators.push(r.annotatorId)
  }
  const people = db.prepare('SELECT id, name, kind FROM annotators').all() as {
    id: number
    name: string
    kind: string
  }[]
  const annotatorIds = new Map(people.map((a) => [a.name, a.id]))
  const sourceIds = new Set(people.filter((a) => a.kind === 'source').map((a) => a.id))
  const rule = datasetSettings(db, datasetId).goldRule
  const source: GoldSource = rule.kind === 'annotator' ? 'annotator' : 'majority'
  const decide = compileGoldRule(rule, {
    binary: values.map((v) => toBinary(schema, v)),
    annotatorIds,
    sourceIds,
    exclude: exclude ?? -1,
  })
  for (const [targetId, e] of byTarget) {
    if (out.has(targetId)) continue
    const c = decide(e.codes, e.annotators)
    if (c >= 0) out.set(targetId, { targetId, verdict: values[c]!, source })
  }
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
    /** The adjudicator had labelled the target themselves (migration 0110). */
    adjudicatorLabelled?: boolean
  },
): void {
  db.prepare(
    `INSERT INTO gold (target_id, verdict, source, adjudicator_id, note, updated_at, adjudicator_labelled)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (target_id) DO UPDATE SET verdict = excluded.verdict, source = excluded.source,
       adjudicator_id = excluded.adjudicator_id, note = excluded.note, updated_at = excluded.updated_at,
       adjudicator_labelled = excluded.adjudicator_labelled`,
  ).run(
    input.targetId,
    input.verdict,
    input.source,
    input.adjudicatorId ?? null,
    input.note ?? null,
    now(),
    input.adjudicatorLabelled ? 1 : 0,
  )
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
  // Gold rows lead (CROSS JOIN keeps them outside): left to itself SQLite walked every target of
  // the dataset to probe a gold table that is often empty. Both orders are by target id.
  return db
    .prepare(
      'SELECT g.target_id, g.verdict FROM gold g CROSS JOIN targets t ON t.id = g.target_id WHERE t.dataset_id = ?',
    )
    .raw()
    .all(datasetId) as [number, string][]
}

/** Writes the gold a file brings with it on import (a target's first gold row). */
export function importedGoldWriter(
  db: Db,
): (targetId: number, verdict: string, at: string, source?: 'import' | 'adjudicated') => void {
  const insert = db.prepare('INSERT INTO gold (target_id, verdict, source, updated_at) VALUES (?, ?, ?, ?)')
  // 'adjudicated': a decision FactLab's own export carried over from the workspace it was made in
  // (the adjudicator is not in the file, so none is named).
  return (targetId, verdict, at, source = 'import') => {
    insert.run(targetId, verdict, source, at)
  }
}
