/**
 * The order of the Compare table's rows under a sorted column. Undefined figures go last. Under a
 * column that says which row is better (error rate, accuracy, F1, κ), rows whose rates rest on
 * too few targets go after the rows that rest on enough, whichever way the column is sorted: a
 * person's 0.0% over 16 targets is a Wilson interval reaching 19%, not the best score in the table.
 */

/** What the order reads of a row: its value in the sorted column, and its small-sample mark. */
export interface Ordered {
  value: number | string | null
  /** Its rates rest on too few targets (src/shared/smallSample.ts rateNote). */
  small: boolean
}

export function compareRows(a: Ordered, b: Ordered, opts: { figure: boolean; desc: boolean }): number {
  const x = a.value
  const y = b.value
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1
  if (opts.figure && a.small !== b.small) return a.small ? 1 : -1
  const c = typeof x === 'string' ? x.localeCompare(String(y)) : x - (y as number)
  return opts.desc ? -c : c
}
