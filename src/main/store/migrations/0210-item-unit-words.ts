import type { Migration } from './types'

const CURRENT = 'superseded_by IS NULL AND deleted_at IS NULL'

const itemImporting = (itemId: string) =>
  `EXISTS (SELECT 1 FROM datasets d WHERE d.id = (SELECT dataset_id FROM items WHERE id = ${itemId}) AND d.state = 'importing')`

/**
 * Rewrites the row of item `id` (an SQL expression): every current unit's text, one per line, or
 * no row when the item has none. A line break is no word character, so the row holds exactly the
 * words of its units, and a word matches the row when it is in one of them.
 */
export const refreshItemUnitWords = (id: string) => `
  DELETE FROM item_units_fts WHERE rowid = ${id};
  INSERT INTO item_units_fts (rowid, text)
    SELECT ${id}, group_concat(text, char(10)) FROM units WHERE item_id = ${id} AND ${CURRENT} HAVING COUNT(*) > 0;`

/**
 * A second word index of the units, one row per item (rowid = item id) holding its current
 * units' words. A search for one word found in most units (at 100k items "fact" is in all 600k)
 * spent most of its time turning each matching unit into its item, checking that the unit is
 * current and dropping repeats of the item; here each item comes once, current units only. The
 * index is contentless (the text is in units) and has no positions (detail = none, as the
 * others), so it is about a third of units_fts; contentless_delete lets a row be replaced by its
 * rowid alone. Kept by triggers on units (a unit added, edited into a new one, deleted or
 * restored rewrites its item's row) and items (a deleted item's row goes); an importing dataset's
 * rows are added by ChunkWriter, like the other indexes'. Searches of two or more words keep to
 * units_fts: their words must be in one unit, not anywhere in the item.
 */
export const migration0210: Migration = {
  version: 210,
  name: 'item-unit-words',
  up: `
CREATE VIRTUAL TABLE item_units_fts USING fts5(text, content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2', detail = none);

CREATE TRIGGER item_units_fts_ai AFTER INSERT ON units WHEN NOT ${itemImporting('new.item_id')}
  BEGIN ${refreshItemUnitWords('new.item_id')} END;
CREATE TRIGGER item_units_fts_au AFTER UPDATE OF item_id, text, superseded_by, deleted_at ON units
  BEGIN ${refreshItemUnitWords('new.item_id')} END;
CREATE TRIGGER item_units_fts_moved AFTER UPDATE OF item_id ON units WHEN old.item_id <> new.item_id
  BEGIN ${refreshItemUnitWords('old.item_id')} END;
-- Hard deletes cascade parent-first: when an item goes, its units find it gone and leave the row
-- to the items trigger instead of rewriting it once per unit.
CREATE TRIGGER item_units_fts_ad AFTER DELETE ON units WHEN EXISTS (SELECT 1 FROM items WHERE id = old.item_id)
  BEGIN ${refreshItemUnitWords('old.item_id')} END;
CREATE TRIGGER item_units_fts_item_ad AFTER DELETE ON items
  BEGIN DELETE FROM item_units_fts WHERE rowid = old.id; END;

INSERT INTO item_units_fts (rowid, text)
  SELECT item_id, group_concat(text, char(10)) FROM units WHERE ${CURRENT} GROUP BY item_id;
`,
}
