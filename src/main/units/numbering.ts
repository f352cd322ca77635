/**
 * One unit numbering for every command and file: a unit's number is its 1-based place among
 * the item's current units in the order the Units view and `units list` show them — facts
 * first, then each candidate's units (candidates in id order), each list in its own order.
 * `label`, `adjudicate`, `units list`, `import-verdicts` and `export-verdicts` all use it.
 *
 * UNIT_ORDER expects `u` for the unit and `c` for the unit's own candidate (NULL for facts).
 */
export const UNIT_ORDER = "u.kind <> 'fact', c.id, u.kind, u.position, u.id"

/**
 * (unit_id, number) of every current unit of a dataset's items: a CTE body to join on.
 * Parameter: the dataset id.
 */
export const UNIT_NUMBERS_SQL = `
  SELECT u.id AS unit_id, ROW_NUMBER() OVER (PARTITION BY u.item_id ORDER BY ${UNIT_ORDER}) AS number
  FROM units u LEFT JOIN candidates c ON c.id = u.candidate_id
  WHERE u.superseded_by IS NULL AND u.deleted_at IS NULL
    AND u.item_id IN (SELECT id FROM items WHERE dataset_id = ?)`

/** How a file numbers its units: 1 (as FactLab counts, the default) or 0 (older files). */
export type UnitBase = 0 | 1
