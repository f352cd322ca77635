import type { Migration } from './types'

/**
 * Each current unit's item, in unit id order (annotate/searchHits.ts): the items search maps
 * the units a word matches to their items through this narrow index, not through the units'
 * rows, which carry their text. Partial, so it also says the unit is current; SQLite keeps it
 * with the table, no trigger needed.
 */
export const migration0210: Migration = {
  version: 210,
  name: 'unit-items',
  up: `CREATE INDEX units_current_item ON units (id, item_id)
    WHERE superseded_by IS NULL AND deleted_at IS NULL;`,
}
