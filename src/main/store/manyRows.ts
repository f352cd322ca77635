import type { Db } from './connection'
import { stmt } from './statements'

/**
 * Rows per statement: 9 columns × 100 rows stays far below SQLite's bound-parameter limit, and
 * larger statements measured no cheaper per row.
 */
const ROWS = 100

/**
 * Runs `head` (an `INSERT ... VALUES` without its tuples) over many rows, a hundred per statement:
 * each row's values are bound exactly as a one-row statement binds them, so what is stored is
 * the same, while the per-statement cost (and the JSON a `json_each` insert parses, ~2 µs a row)
 * is paid once per hundred rows. `tuple` is one row's values (by default a `?` per value; it may
 * hold constants); `tail` follows the tuples (an upsert clause, RETURNING), and rows a RETURNING
 * gives back are returned raw, in statement order.
 */
export function insertManyRows(
  db: Db,
  head: string,
  rows: readonly (readonly unknown[])[],
  o: { tuple?: string; tail?: string } = {},
): unknown[][] {
  const out: unknown[][] = []
  if (rows.length === 0) return out
  const tuple =
    o.tuple ??
    `(${Array((rows[0] as readonly unknown[]).length)
      .fill('?')
      .join(', ')})`
  const width = tuple.split('?').length - 1
  const tail = o.tail ?? ''
  const returns = /\bRETURNING\b/i.test(tail)
  for (let from = 0; from < rows.length; from += ROWS) {
    const group = rows.slice(from, from + ROWS)
    const s = stmt(db, `${head} ${Array(group.length).fill(tuple).join(', ')} ${tail}`)
    const values: unknown[] = []
    for (const row of group) {
      if (row.length !== width) throw new Error(`insertManyRows: a row of ${row.length} values, not ${width}`)
      for (const v of row) values.push(v)
    }
    if (returns) for (const r of s.raw(true).all(values) as unknown[][]) out.push(r)
    else s.run(values)
  }
  return out
}
