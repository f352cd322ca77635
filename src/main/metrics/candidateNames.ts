import type { Db } from '../store/connection'
import { CODE_SPAN, sqlString } from './packing'

/**
 * Each candidate's variant as its index in `names` (−1: a variant not among them, such as another
 * dataset's in the same range of items), for the candidates `cMin` … `cMax` of the items `iMin` …
 * `iMax`. Read as one number per candidate (id and variant packed) through the candidates'
 * (item, variant) index: at a million targets, rows of an id and a string joined with their items
 * cost a view a fifth of a second. Null when the two do not pack into one exact number, or a
 * candidate id is not positive: the caller reads the rows another way.
 */
export function candidateNameIndex(
  db: Db,
  names: readonly string[],
  [iMin, iMax]: readonly [number, number],
  [cMin, cMax]: readonly [number, number],
): Int32Array | null {
  const k = names.length
  if (k === 0 || k >= CODE_SPAN || (cMax + 1) * (k + 1) >= 2 ** 53) return null
  const cases = names.map((v, i) => `WHEN ${sqlString(v)} THEN ${i}`).join(' ')
  const packed = db
    .prepare(
      `SELECT id * ${k + 1} + CASE variant ${cases} ELSE ${k} END FROM candidates WHERE item_id BETWEEN ? AND ?`,
    )
    .pluck()
    .all(iMin, iMax) as number[]
  const nameOf = new Int32Array(cMax - cMin + 1).fill(-1)
  for (const v of packed) {
    const name = v % (k + 1)
    const c = (v - name) / (k + 1)
    if (c <= 0) return null
    if (name < k && c >= cMin && c <= cMax) nameOf[c - cMin] = name
  }
  return nameOf
}
