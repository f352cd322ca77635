import { CODE_SPAN, sqlString } from '../metrics/packing'
import type { Db } from '../store/connection'

/**
 * Current labels of the dataset's target-id range (other datasets' targets fall outside the
 * index later). Categorical verdicts travel packed into one integer per label.
 */
export function loadLabelRows(
  db: Db,
  datasetId: number,
  labels: string[],
  minId: number,
  maxId: number,
): [number, number, string][] {
  const k = labels.length
  const span = db.prepare('SELECT MIN(id) AS lo, MAX(id) AS hi FROM annotators').get() as {
    lo: number | null
    hi: number | null
  }
  const aLo = span.lo ?? 0
  const aSpan = (span.hi ?? 0) - aLo + 1
  const packable = k > 0 && k < CODE_SPAN && (maxId - minId + 1) * aSpan * CODE_SPAN < 2 ** 53
  if (!packable)
    return db
      .prepare(
        `SELECT l.target_id, l.annotator_id, l.verdict FROM labels l JOIN targets t ON t.id = l.target_id
         WHERE t.dataset_id = ? AND l.verdict IS NOT NULL`,
      )
      .raw()
      .all(datasetId) as [number, number, string][]
  const cases = labels.map((l, i) => `WHEN ${sqlString(l)} THEN ${i}`).join(' ')
  const packed = db
    .prepare(
      `SELECT ((target_id - ${minId}) * ${aSpan} + annotator_id - ${aLo}) * ${CODE_SPAN} + CASE verdict ${cases} ELSE ${k} END
       FROM labels WHERE target_id BETWEEN ? AND ? AND verdict IS NOT NULL`,
    )
    .pluck()
    .all(minId, maxId) as number[]
  const out: [number, number, string][] = new Array(packed.length)
  let m = 0
  for (const v of packed) {
    const code = v % CODE_SPAN
    // A stored label outside the schema (a schema edited after labelling) is not a verdict.
    if (code >= k) continue
    const rest = (v - code) / CODE_SPAN
    const a = rest % aSpan
    out[m++] = [(rest - a) / aSpan + minId, a + aLo, labels[code]!]
  }
  out.length = m
  return out
}
