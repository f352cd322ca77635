/** A gold rule over one target's labels (labels/rules.ts compiles one): the gold code or −1. */
export type GoldDecider = (codes: ArrayLike<number>, annotators: ArrayLike<number>) => number

/**
 * Labels of a dataset grouped by target (compressed rows), and gold computed from them the way
 * `resolveGold` does: a stored gold row wins, else the strict majority, a tie gives no gold.
 * Doing it here from one fetch lets every human figure (gold, leave-one-out gold for humans as
 * judges, agreement) share one pass instead of a query per annotator.
 */
export interface LabelColumns {
  /** labels of target i are at start[i] … start[i + 1] − 1 */
  start: Int32Array
  annotator: Int32Array
  /** index into `values` */
  code: Int32Array
  values: string[]
  annotatorIds: number[]
}

export function buildLabelColumns(
  targets: number,
  rows: readonly [number, number, string][],
  indexOf: Int32Array,
  initialValues: readonly string[],
): LabelColumns {
  const values = [...initialValues]
  const codeOf = new Map(values.map((v, i) => [v, i]))
  const counts = new Int32Array(targets + 1)
  const kept: number[] = []
  for (let r = 0; r < rows.length; r++) {
    const id = rows[r]![0]
    const i = id < indexOf.length ? indexOf[id]! : -1
    if (i < 0) continue
    counts[i + 1]!++
    kept.push(r)
  }
  const start = new Int32Array(targets + 1)
  for (let i = 0; i < targets; i++) start[i + 1] = start[i]! + counts[i + 1]!
  const fill = start.slice(0, targets)
  const annotator = new Int32Array(kept.length)
  const code = new Int32Array(kept.length)
  const annotatorIds = new Set<number>()
  for (const r of kept) {
    const [id, a, v] = rows[r]!
    let c = codeOf.get(v)
    if (c === undefined) {
      c = values.length
      values.push(v)
      codeOf.set(v, c)
    }
    const i = indexOf[id]!
    const at = fill[i]!++
    annotator[at] = a
    code[at] = c
    annotatorIds.add(a)
  }
  return { start, annotator, code, values, annotatorIds: [...annotatorIds].sort((x, y) => x - y) }
}

/**
 * Gold value code per target (−1: none). `stored` holds adjudicated or imported gold codes
 * (−1 where there is none); `exclude` leaves one annotator out. `decide` is the dataset's gold
 * rule (labels/rules.ts) when it is not the default strict majority, compiled with the same
 * exclusion; without it the strict majority below is used, a tie giving no gold.
 */
export function goldCodes(
  l: LabelColumns,
  stored: Int32Array,
  exclude = -1,
  decide?: GoldDecider,
): Int32Array {
  const n = l.start.length - 1
  const out = new Int32Array(n).fill(-1)
  const tally = new Int32Array(l.values.length)
  for (let i = 0; i < n; i++) {
    if (stored[i]! >= 0) {
      out[i] = stored[i]!
      continue
    }
    if (decide) {
      out[i] = decide(
        l.code.subarray(l.start[i]!, l.start[i + 1]!),
        l.annotator.subarray(l.start[i]!, l.start[i + 1]!),
      )
      continue
    }
    // One or two labels with nobody left out (most targets): the strict majority at a glance.
    const s = l.start[i]!
    const e = l.start[i + 1]!
    if (exclude < 0 && e - s === 1) out[i] = l.code[s]!
    else if (exclude < 0 && e - s === 2) out[i] = l.code[s] === l.code[s + 1] ? l.code[s]! : -1
    else out[i] = majorityAt(l, i, exclude, tally)
  }
  return out
}

/** The strict majority of target i's labels, `exclude` left out; −1 for a tie or no label. */
export function majorityAt(l: LabelColumns, i: number, exclude: number, tally: Int32Array): number {
  const s = l.start[i]!
  const e = l.start[i + 1]!
  let best = -1
  let bestN = 0
  let tie = false
  for (let k = s; k < e; k++) {
    if (l.annotator[k] === exclude) continue
    const c = l.code[k]!
    const m = ++tally[c]!
    if (m > bestN) {
      best = c
      bestN = m
      tie = false
    } else if (m === bestN && c !== best) tie = true
  }
  for (let k = s; k < e; k++) tally[l.code[k]!] = 0
  return tie ? -1 : best
}
