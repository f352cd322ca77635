import type { Db } from '../store/connection'

/**
 * The item and candidate fields of each exported target, read alongside the targets' own rows
 * (targetColumns.ts) so that each item's and candidate's texts are read and held once.
 */

/** One candidate with its item, in the order the SELECTs below give them. */
export type ContextSql = [
  position: number,
  candidateId: number,
  itemId: number,
  extId: string,
  question: string | null,
  reference: string,
  variant: string,
  candidate: string,
  itemMetadata: string | null,
  candidateMetadata: string | null,
]

const NONE: readonly ContextSql[] = []

/** An item's or candidate's metadata as its JSON text, or null when it has none. */
const metadataCell = (column: string) =>
  `CASE WHEN ${column} IS NULL OR ${column} IN ('', '{}', 'null') THEN NULL ELSE ${column} END`

/**
 * The item and candidate fields of each target. A second cursor walks the candidates in the
 * same order as the targets, so each item's and candidate's texts are read once (not once
 * per target) and every target of an item shares the same string values. A target whose
 * candidate the cursor has passed or does not hold is looked up directly. The candidates the
 * cursor steps over without a target asking for them have no current units: `passed` hands
 * them out, so each still gets a row and an export keeps every item and answer.
 */
export function contextReader(db: Db, datasetId: number) {
  const cursor = db
    .prepare(
      `SELECT i.position, c.id, i.id, i.ext_id, i.question, i.reference, c.variant, c.text,
         ${metadataCell('i.metadata')}, ${metadataCell('c.metadata')}
       FROM items i INDEXED BY items_by_dataset JOIN candidates c ON c.item_id = i.id
       WHERE i.dataset_id = ? ORDER BY i.position, c.id`,
    )
    .raw()
    .iterate(datasetId) as IterableIterator<ContextSql>
  const direct = db
    .prepare(
      `SELECT ?, c.id, i.id, i.ext_id, i.question, i.reference, c.variant, c.text,
         ${metadataCell('i.metadata')}, ${metadataCell('c.metadata')}
       FROM items i, candidates c WHERE i.id = ? AND c.id = ?`,
    )
    .raw()
  let at: ContextSql | undefined
  let served = false
  let done = false
  const unserved: ContextSql[] = []
  const next = () => {
    if (at && !served) unserved.push(at)
    served = false
    const n = cursor.next()
    if (n.done) {
      done = true
      at = undefined
      return
    }
    const prev = at
    at = n.value
    // Candidates of one item share its strings.
    if (prev && prev[2] === at[2]) {
      at[3] = prev[3]
      at[4] = prev[4]
      at[5] = prev[5]
      at[8] = prev[8]
    }
  }
  return {
    get(position: number, itemId: number, candidateId: number): ContextSql {
      while (!done && (at === undefined || at[0] < position || (at[0] === position && at[1] < candidateId)))
        next()
      if (at && at[0] === position && at[1] === candidateId && at[2] === itemId) {
        served = true
        return at
      }
      const row = direct.get(position, itemId, candidateId) as ContextSql | undefined
      if (!row) throw new Error(`Target of item ${itemId} names a missing candidate ${candidateId}`)
      return row
    },
    /** Candidates stepped over without a target so far (all that are left, once `end`). */
    passed(end = false): readonly ContextSql[] {
      if (end) while (!done) next()
      // Asked once per target: nothing to hand out is the usual answer, and allocates nothing.
      return unserved.length === 0 ? NONE : unserved.splice(0)
    },
    close() {
      cursor.return?.()
    },
  }
}
