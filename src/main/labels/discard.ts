import type { Statement } from 'better-sqlite3'
import type { Db } from '../store/connection'

/**
 * Statements deleting the labels, label history, gold and gold history of the targets a
 * subquery selects (its parameters are the caller's). Only for withdrawing an import that never
 * became visible: nobody can have labelled those targets, so nothing a person did goes this way.
 * History goes first, before the rows its triggers guard.
 */
export function labelDeleters(db: Db, targets: string): Statement[] {
  return [
    `DELETE FROM label_history WHERE target_id IN (${targets})`,
    `DELETE FROM labels WHERE target_id IN (${targets})`,
    `DELETE FROM gold WHERE target_id IN (${targets})`,
    `DELETE FROM gold_history WHERE target_id IN (${targets})`,
  ].map((sql) => db.prepare(sql))
}
