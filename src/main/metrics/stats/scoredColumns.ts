/**
 * Scored responses as typed columns, the form levels.ts and levelIntervals.ts work on. Each
 * response's document and system come as ranks numbered once for a whole dataset, so a
 * correlation line makes no row object per response and looks up no name per row: the
 * item-level build fills these columns straight from its score columns. Pure.
 */

export interface ScoredResponse {
  item: number
  variant: string
  judge: number
  human: number
}

export interface ScoredColumns {
  n: number
  judge: Float64Array
  human: Float64Array
  /**
   * Each response's document: the rank of its id among the documents' ids, below `docs` (the
   * ranks need not all be used: a line holds the responses both of its sides scored).
   */
  doc: Int32Array
  docs: number
  /** Each response's system: the index of its name in `systemNames`, which are in code-unit order. */
  sys: Int32Array
  systemNames: readonly string[]
}

function codeUnitOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Ranks of values among their distinct values, in the order `compare` puts them. */
function ranksOf<T>(
  values: readonly T[],
  compare: (a: T, b: T) => number,
): { rank: Int32Array; distinct: T[] } {
  const distinct = [...new Set(values)].sort(compare)
  const index = new Map(distinct.map((v, i) => [v, i]))
  const rank = new Int32Array(values.length)
  for (let i = 0; i < values.length; i++) rank[i] = index.get(values[i]!)!
  return { rank, distinct }
}

/** Documents' and systems' numbers for a list of (item id, variant), as a dataset numbers them once. */
export function responseNumbers(
  items: readonly number[],
  variants: readonly string[],
): { doc: Int32Array; docs: number; sys: Int32Array; systemNames: string[] } {
  const d = ranksOf(items, (a, b) => a - b)
  const s = ranksOf(variants, codeUnitOrder)
  return { doc: d.rank, docs: d.distinct.length, sys: s.rank, systemNames: s.distinct }
}

/** Rows as columns, for callers that hold rows. */
export function scoredColumns(rows: readonly ScoredResponse[]): ScoredColumns {
  const n = rows.length
  const judge = new Float64Array(n)
  const human = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    judge[i] = rows[i]!.judge
    human[i] = rows[i]!.human
  }
  const numbers = responseNumbers(
    rows.map((r) => r.item),
    rows.map((r) => r.variant),
  )
  return { n, judge, human, ...numbers }
}

/**
 * Each response's document numbered 0…count−1 in the order of the documents' ids, and the
 * responses in that order (a document's keeping theirs).
 */
export function documentNumbers(c: ScoredColumns): DocumentNumbers {
  let got = numbered.get(c)
  if (!got) {
    got = numberDocuments(c)
    numbered.set(c, got)
  }
  return got
}

export interface DocumentNumbers {
  of: Int32Array
  count: number
  order: Int32Array
  /** the responses lie document by document already: `order` is 0, 1, … */
  inOrder: boolean
}

// Both levels of a line ask for its documents: numbered once per line.
const numbered = new WeakMap<ScoredColumns, DocumentNumbers>()

function numberDocuments(c: ScoredColumns): DocumentNumbers {
  const { n, doc } = c
  const order = new Int32Array(n)
  let sorted = true
  for (let i = 0; i < n; i++) {
    order[i] = i
    if (i > 0 && doc[i]! < doc[i - 1]!) sorted = false
  }
  if (!sorted) {
    // A counting sort by rank: stable, so a document's responses keep their order.
    const at = new Int32Array(c.docs + 1)
    for (let i = 0; i < n; i++) at[doc[i]! + 1]!++
    for (let d = 0; d < c.docs; d++) at[d + 1]! += at[d]!
    for (let i = 0; i < n; i++) order[at[doc[i]!]!++] = i
  }
  const of = new Int32Array(n)
  let count = 0
  for (let k = 0; k < n; k++) {
    if (k > 0 && doc[order[k]!] !== doc[order[k - 1]!]) count++
    of[order[k]!] = count
  }
  return { of, count: n === 0 ? 0 : count + 1, order, inOrder: sorted }
}

/** Each system's number among the systems the responses hold (in name order), and how many. */
export function systemNumbers(c: ScoredColumns): { of: Int32Array; count: number } {
  const S = c.systemNames.length
  const dense = new Int32Array(S).fill(-1)
  for (let i = 0; i < c.n; i++) dense[c.sys[i]!] = 0
  let count = 0
  for (let s = 0; s < S; s++) if (dense[s] === 0) dense[s] = count++
  return { of: dense, count }
}
