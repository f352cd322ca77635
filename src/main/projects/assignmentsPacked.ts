import type { Db } from '../store/connection'

/** A fixed plan's assignments as two columns: assignment j gives item[j] to annotator[j]. */
export interface Assignments {
  item: Int32Array
  annotator: Int32Array
}

/**
 * A dataset's assignments read as one row of text (SQLite joins the numbers) and parsed into
 * columns: at 200,000 assignments, an array per row cost the Project view a fifth of its time
 * on its own thread. Their order is of no account to the figures (each item's people are a set).
 */
export function readAssignments(db: Db, datasetId: number): Assignments {
  const [count, text] = db
    .prepare(
      "SELECT COUNT(*), group_concat(item_id || ',' || annotator_id) FROM assignments WHERE dataset_id = ?",
    )
    .raw()
    .get(datasetId) as [number, string | null]
  return parseAssignments(text ?? '', count)
}

/** "item,annotator,item,annotator,…" (non-negative integers) into `count` assignments. */
export function parseAssignments(text: string, count: number): Assignments {
  const item = new Int32Array(count)
  const annotator = new Int32Array(count)
  let n = 0
  let value = 0
  let digits = 0
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 44
    if (c !== 44) {
      value = value * 10 + (c - 48)
      digits++
      continue
    }
    if (digits === 0) continue
    if ((n & 1) === 0) item[n >> 1] = value
    else annotator[n >> 1] = value
    n++
    value = 0
    digits = 0
  }
  if (n !== 2 * count) throw new Error(`Read ${n / 2} assignments where the workspace holds ${count}`)
  return { item, annotator }
}
