/**
 * Inter-annotator agreement. Every function takes a ratings matrix: one row per target, one
 * column per annotator, null where that annotator gave no label. A null result means the
 * figure is not defined for the data (too little overlap, or only one category in use), which
 * the UI shows as "not defined" rather than a misleading 0 or NaN.
 */

type Rating = string | null

// Distinct values of the row being tallied and their counts, reused from row to row: rows hold a
// handful of labels, so a linear search beats a Map allocated per row.
const rowKeys: string[] = []
const rowCounts: number[] = []

/** Tallies a row's present ratings (first-seen order); returns how many distinct values. */
function countRow(row: readonly Rating[]): number {
  let d = 0
  for (const v of row) {
    if (v === null) continue
    let k = 0
    while (k < d && rowKeys[k] !== v) k++
    if (k === d) {
      rowKeys[d] = v
      rowCounts[d++] = 1
    } else rowCounts[k]!++
  }
  return d
}

function rowTotal(d: number): number {
  let m = 0
  for (let k = 0; k < d; k++) m += rowCounts[k]!
  return m
}

/** Share of agreeing annotator pairs on one target (1 when everyone agrees). */
function rowPairAgreement(d: number, m: number): number {
  let agreeing = 0
  for (let k = 0; k < d; k++) agreeing += rowCounts[k]! * (rowCounts[k]! - 1)
  return agreeing / (m * (m - 1))
}

/**
 * Mean over targets with at least two labels of the share of annotator pairs that agree. With
 * two annotators this is simply the share of targets they label alike.
 */
export function percentAgreement(ratings: Rating[][]): number | null {
  let sum = 0
  let n = 0
  for (const row of ratings) {
    const d = countRow(row)
    const m = rowTotal(d)
    if (m < 2) continue
    sum += rowPairAgreement(d, m)
    n++
  }
  return n === 0 ? null : sum / n
}

/** Cohen's κ over the targets both annotators labelled. */
export function cohenKappa(a: readonly Rating[], b: readonly Rating[]): number | null {
  if (a.length !== b.length)
    throw new Error(`cohenKappa: rating lists differ in length (${a.length} vs ${b.length})`)
  const ma = new Map<string, number>()
  const mb = new Map<string, number>()
  let n = 0
  let same = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? null
    const y = b[i] ?? null
    if (x === null || y === null) continue
    n++
    if (x === y) same++
    ma.set(x, (ma.get(x) ?? 0) + 1)
    mb.set(y, (mb.get(y) ?? 0) + 1)
  }
  if (n === 0) return null
  let pe = 0
  for (const [k, ca] of ma) pe += (ca / n) * ((mb.get(k) ?? 0) / n)
  // Both annotators used one and the same category throughout: chance agreement is total and
  // κ is 0/0.
  if (pe >= 1 - 1e-12) return null
  return (same / n - pe) / (1 - pe)
}

/**
 * Fleiss' κ, generalised to a varying number of labels per target (targets with fewer than two
 * labels are left out, as they carry no agreement information).
 */
export function fleissKappa(ratings: Rating[][]): number | null {
  let pSum = 0
  let items = 0
  let total = 0
  const totals = new Map<string, number>()
  for (const row of ratings) {
    const d = countRow(row)
    const m = rowTotal(d)
    if (m < 2) continue
    pSum += rowPairAgreement(d, m)
    items++
    total += m
    for (let k = 0; k < d; k++) totals.set(rowKeys[k]!, (totals.get(rowKeys[k]!) ?? 0) + rowCounts[k]!)
  }
  if (items === 0) return null
  let pe = 0
  for (const c of totals.values()) pe += (c / total) ** 2
  if (pe >= 1 - 1e-12) return null
  return (pSum / items - pe) / (1 - pe)
}

/**
 * Krippendorff's α from the coincidence matrix. `nominal` treats values as categories;
 * `interval` uses squared numeric distance (values that are not numbers count as missing).
 */
export function krippendorffAlpha(
  ratings: (string | number | null)[][],
  level: 'nominal' | 'interval',
): number | null {
  // Map every value to a dense index so the coincidence matrix is a flat array. The pairable
  // rows' codes sit end to end in one array (row r is flat[starts[r]] … flat[starts[r + 1] − 1]),
  // which spares two small arrays per row.
  const index = new Map<string, number>()
  const numeric: number[] = []
  const flat: number[] = []
  const starts: number[] = [0]
  for (const row of ratings) {
    const start = flat.length
    for (const raw of row) {
      if (raw === null) continue
      let key: string
      if (level === 'interval') {
        const x = typeof raw === 'number' ? raw : raw.trim() === '' ? Number.NaN : Number(raw)
        if (!Number.isFinite(x)) continue
        key = String(x)
        if (!index.has(key)) numeric.push(x)
      } else key = String(raw)
      let code = index.get(key)
      if (code === undefined) {
        code = index.size
        index.set(key, code)
      }
      flat.push(code)
    }
    if (flat.length - start >= 2) starts.push(flat.length)
    else flat.length = start
  }
  const k = index.size
  if (starts.length === 1 || k === 0) return null
  const o = new Float64Array(k * k)
  for (let r = 0; r + 1 < starts.length; r++) {
    const s = starts[r]!
    const e = starts[r + 1]!
    const w = 1 / (e - s - 1)
    for (let i = s; i < e; i++) for (let j = s; j < e; j++) if (i !== j) o[flat[i]! * k + flat[j]!]! += w
  }
  return alphaFromCoincidences(o, k, (c, d) =>
    level === 'nominal' ? (c === d ? 0 : 1) : (numeric[c]! - numeric[d]!) ** 2,
  )
}

/** α from a k × k coincidence matrix (row-major) and a distance between value indices. */
export function alphaFromCoincidences(
  o: Float64Array,
  k: number,
  delta: (c: number, d: number) => number,
): number | null {
  const nc = new Float64Array(k)
  let n = 0
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < k; d++) nc[c]! += o[c * k + d]!
    n += nc[c]!
  }
  let observed = 0
  let expected = 0
  for (let c = 0; c < k; c++)
    for (let d = 0; d < k; d++) {
      if (c === d) continue
      const dist = delta(c, d)
      observed += o[c * k + d]! * dist
      expected += nc[c]! * nc[d]! * dist
    }
  // No variation among the pairable values: disagreement expected by chance is zero.
  if (expected === 0) return null
  return 1 - ((n - 1) * observed) / expected
}
