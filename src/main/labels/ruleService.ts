import { DatasetSettings, Json } from '../../shared/domain'
import { describeGoldRule, GoldRule } from '../../shared/goldRule'
import type { Db } from '../store/connection'
import { datasetSettings, getDataset } from '../store/repos/datasets'
import { now, parseJson } from '../store/repos/rows'
import { resolveGold } from './gold'

/**
 * A dataset's gold rule: read it, change it. A change recomputes gold at once (gold is derived
 * from the labels whenever it is read) and appends to gold_rule_history (migration 0120) the
 * rule, the one it replaced and the gold of every target that moved, so no earlier gold is lost.
 */

export interface GoldRuleChange {
  id: number
  rule: GoldRule
  previous: GoldRule
  description: string
  changedBy: string | null
  changedAt: string
  goldBefore: number
  goldAfter: number
  /** Targets whose gold the change moved. */
  moved: number
}

export class GoldRuleError extends Error {}

export function goldRuleOf(db: Db, datasetId: number): GoldRule {
  getDataset(db, datasetId)
  return datasetSettings(db, datasetId).goldRule
}

function annotatorExists(db: Db, name: string): boolean {
  return db.prepare('SELECT 1 FROM annotators WHERE name = ?').get(name) !== undefined
}

function hasSourceLabels(db: Db, datasetId: number): boolean {
  return (
    db
      .prepare(
        `SELECT 1 FROM labels l JOIN targets t ON t.id = l.target_id JOIN annotators a ON a.id = l.annotator_id
         WHERE t.dataset_id = ? AND a.kind = 'source' AND l.verdict IS NOT NULL LIMIT 1`,
      )
      .get(datasetId) !== undefined
  )
}

/** Sets the rule; returns the history entry, or null when the rule is the one in force. */
export function setGoldRule(
  db: Db,
  datasetId: number,
  input: unknown,
  changedBy: string | null = null,
): GoldRuleChange | null {
  const parsed = GoldRule.safeParse(input)
  if (!parsed.success)
    throw new GoldRuleError(`Not a gold rule: ${parsed.error.issues[0]?.message ?? 'invalid'}`)
  const rule = parsed.data
  if (rule.kind === 'annotator' && !annotatorExists(db, rule.annotator))
    throw new GoldRuleError(`No annotator named "${rule.annotator}" in this workspace`)
  if (rule.kind === 'majority' && rule.of === 'sources' && !hasSourceLabels(db, datasetId))
    throw new GoldRuleError(
      'This dataset has no reference labels of its own (no source gave labels with the import), so a majority of its sources would give no gold',
    )
  return db.transaction(() => {
    const previous = goldRuleOf(db, datasetId)
    if (JSON.stringify(previous) === JSON.stringify(rule)) return null
    const before = resolveGold(db, datasetId)
    const raw = db.prepare('SELECT settings FROM datasets WHERE id = ?').get(datasetId) as {
      settings: string
    }
    const settings = { ...parseJson(Json, raw.settings, 'datasets.settings'), goldRule: rule }
    DatasetSettings.parse(settings)
    db.prepare('UPDATE datasets SET settings = ? WHERE id = ?').run(JSON.stringify(settings), datasetId)
    const after = resolveGold(db, datasetId)
    const at = now()
    const id = Number(
      db
        .prepare(
          `INSERT INTO gold_rule_history (dataset_id, rule, previous, changed_by, changed_at, gold_before, gold_after)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          datasetId,
          JSON.stringify(rule),
          JSON.stringify(previous),
          changedBy,
          at,
          before.size,
          after.size,
        ).lastInsertRowid,
    )
    const insert = db.prepare(
      'INSERT INTO gold_rule_changes (change_id, target_id, before, after) VALUES (?, ?, ?, ?)',
    )
    let moved = 0
    for (const targetId of new Set([...before.keys(), ...after.keys()])) {
      const b = before.get(targetId)?.verdict ?? null
      const a = after.get(targetId)?.verdict ?? null
      if (a === b) continue
      insert.run(id, targetId, b, a)
      moved++
    }
    return {
      id,
      rule,
      previous,
      description: describeGoldRule(rule),
      changedBy,
      changedAt: at,
      goldBefore: before.size,
      goldAfter: after.size,
      moved,
    }
  })()
}

/** Every change of a dataset's rule, oldest first. */
export function goldRuleHistory(db: Db, datasetId: number): GoldRuleChange[] {
  const rows = db
    .prepare(
      `SELECT h.*, (SELECT COUNT(*) FROM gold_rule_changes c WHERE c.change_id = h.id) AS moved
       FROM gold_rule_history h WHERE dataset_id = ? ORDER BY id`,
    )
    .all(datasetId) as {
    id: number
    rule: string
    previous: string
    changed_by: string | null
    changed_at: string
    gold_before: number
    gold_after: number
    moved: number
  }[]
  return rows.map((r) => {
    const rule = parseJson(GoldRule, r.rule, 'gold_rule_history.rule')
    return {
      id: r.id,
      rule,
      previous: parseJson(GoldRule, r.previous, 'gold_rule_history.previous'),
      description: describeGoldRule(rule),
      changedBy: r.changed_by,
      changedAt: r.changed_at,
      goldBefore: r.gold_before,
      goldAfter: r.gold_after,
      moved: r.moved,
    }
  })
}
