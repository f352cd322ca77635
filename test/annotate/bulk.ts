import type { Workspace } from '../../src/main/app/workspace'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'

/** How much each item holds: by default six facts and texts of a thousand characters. */
export interface BulkShape {
  facts?: number
  textChars?: number
}

/** Items, candidates, facts and targets made in bulk SQL: for tests and benches about reading them. */
export function seedBulk(ws: Workspace, items: number, name = 'bench', shape: BulkShape = {}): number {
  const facts = shape.facts ?? 6
  const chars = shape.textChars ?? 1000
  const ds = createDataset(ws.db, { name, labelSchema: FAAF_SCHEMA })
  ws.db.exec(`
    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${items - 1})
    INSERT INTO items (dataset_id, ext_id, position, question, reference)
      SELECT ${ds.id}, 'i' || i, i, 'Question ' || i || '?', printf('%.${chars}c', 'r') FROM n;
    INSERT INTO candidates (item_id, variant, text)
      SELECT id, v.variant, printf('%.${chars}c', 'c') FROM items,
        (SELECT 'answer' AS variant UNION ALL SELECT 'ungrounded_answer' UNION ALL SELECT 'poor_answer') v
      WHERE dataset_id = ${ds.id};
    WITH RECURSIVE f(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM f WHERE k < ${facts - 1})
    INSERT INTO units (item_id, kind, position, text, created_at)
      SELECT id, 'fact', k, 'fact ' || k || ' of item ' || id, '2026-01-01' FROM items, f WHERE dataset_id = ${ds.id};
    UPDATE units SET lineage_id = id WHERE lineage_id IS NULL;
    INSERT INTO targets (dataset_id, item_id, unit_id, candidate_id)
      SELECT ${ds.id}, u.item_id, u.id, c.id FROM items i JOIN units u ON u.item_id = i.id
        JOIN candidates c ON c.item_id = u.item_id WHERE i.dataset_id = ${ds.id};
  `)
  return ds.id
}
