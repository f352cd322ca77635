import { MIN_SHARED_TARGETS } from '../../shared/smallSample'
import type { AgreementSummary, CohenPair, DatasetAgreement } from './agreementService'
import { annotatorOrder } from './humans'
import type { TargetColumns } from './load'
import { alphaFromCoincidences } from './stats/agreement'
import { Ac1Sums } from './stats/gwet'
import { pabak } from './stats/pabak'

/**
 * The agreement figures of a categorical dataset straight from the label columns, in one pass
 * over integer codes instead of a matrix of strings. It reproduces `agreementFromMatrix` over
 * `ratingsMatrix` exactly, down to the order of every floating-point sum (first-seen order of
 * values, rows in target order, columns in annotator-name order), so both give the same numbers.
 */

const NOMINAL = (c: number, d: number) => (c === d ? 0 : 1)

/** Running sums of one set of rows (every labelled target, or one variant's). */
class Subset {
  n = 0
  pairSum = 0
  total = 0
  readonly totals: Int32Array
  readonly totalsOrder: number[] = []
  /** value code → index in first-seen order (Krippendorff's coincidence matrix), −1 unseen */
  readonly alphaIndex: Int32Array
  k = 0
  readonly o: Float64Array
  readonly ac1: Ac1Sums

  constructor(readonly values: number) {
    this.ac1 = new Ac1Sums(values)
    this.totals = new Int32Array(values)
    this.alphaIndex = new Int32Array(values).fill(-1)
    this.o = new Float64Array(values * values)
  }

  /** One row's present codes, in column order. */
  add(row: Int32Array, m: number, keys: Int32Array, counts: Int32Array): void {
    for (let i = 0; i < m; i++) if (this.alphaIndex[row[i]!]! < 0) this.alphaIndex[row[i]!] = this.k++
    let d = 0
    for (let i = 0; i < m; i++) {
      let k = 0
      while (k < d && keys[k] !== row[i]) k++
      if (k === d) {
        keys[d] = row[i]!
        counts[d++] = 1
      } else counts[k]!++
    }
    // AC1's category propensities count every rated target, even one rated once.
    this.ac1.addRow(keys, counts, d)
    if (m < 2) return
    this.n++
    let agreeing = 0
    for (let k = 0; k < d; k++) agreeing += counts[k]! * (counts[k]! - 1)
    this.pairSum += agreeing / (m * (m - 1))
    this.total += m
    for (let k = 0; k < d; k++) {
      if (this.totals[keys[k]!] === 0) this.totalsOrder.push(keys[k]!)
      this.totals[keys[k]!]! += counts[k]!
    }
    const w = 1 / (m - 1)
    const v = this.values
    for (let i = 0; i < m; i++)
      for (let j = 0; j < m; j++)
        if (i !== j) this.o[this.alphaIndex[row[i]!]! * v + this.alphaIndex[row[j]!]!]! += w
  }

  summary(categories: number, labelOf: (code: number) => string): AgreementSummary {
    const items = this.n
    if (items === 0)
      return {
        n: 0,
        percent: null,
        fleissKappa: null,
        krippendorffAlpha: null,
        ac1: null,
        pabak: null,
        dominantLabel: null,
        dominantShare: null,
      }
    let pe = 0
    for (const c of this.totalsOrder) pe += (this.totals[c]! / this.total) ** 2
    const k = this.k
    const o = new Float64Array(k * k)
    for (let c = 0; c < k; c++) for (let d = 0; d < k; d++) o[c * k + d] = this.o[c * this.values + d]!
    let top = -1
    for (const c of this.totalsOrder) if (top < 0 || this.totals[c]! > this.totals[top]!) top = c
    const q = Math.max(categories, this.ac1.size)
    return {
      n: items,
      percent: this.pairSum / items,
      fleissKappa: pe >= 1 - 1e-12 ? null : (this.pairSum / items - pe) / (1 - pe),
      krippendorffAlpha: alphaFromCoincidences(o, k, NOMINAL),
      ac1: this.ac1.result(q).ac1,
      pabak: pabak(this.pairSum / items, q),
      dominantLabel: top < 0 ? null : labelOf(top),
      dominantShare: top < 0 ? null : this.totals[top]! / this.total,
    }
  }
}

/** Cohen's κ of two columns of the row-major code matrix (−1: no label), as `cohenKappa` does it. */
function cohenOfColumns(
  cells: Int32Array,
  width: number,
  a: number,
  b: number,
  values: number,
): CohenPair['kappa'] {
  const ma = new Int32Array(values)
  const mb = new Int32Array(values)
  const order: number[] = []
  let n = 0
  let same = 0
  for (let r = 0; r < cells.length; r += width) {
    const x = cells[r + a]!
    const y = cells[r + b]!
    if (x < 0 || y < 0) continue
    n++
    if (x === y) same++
    if (ma[x] === 0) order.push(x)
    ma[x]!++
    mb[y]!++
  }
  if (n === 0) return null
  let pe = 0
  for (const c of order) pe += (ma[c]! / n) * (mb[c]! / n)
  if (pe >= 1 - 1e-12) return null
  return (same / n - pe) / (1 - pe)
}

/**
 * AC1 and PABAK of two columns over the targets both labelled, as `robustFigures` computes them
 * from the rows [x, y] (the same sums in the same order), without a row array per target.
 */
function pairRobust(
  grid: Int32Array,
  width: number,
  a: number,
  b: number,
  values: number,
  categories: number,
): { n: number; ac1: number | null; pabak: number | null } {
  const sums = new Ac1Sums(values)
  const keys = new Int32Array(2)
  const counts = new Int32Array(2)
  const used = new Uint8Array(values)
  let distinct = 0
  let n = 0
  for (let r = 0; r < grid.length; r += width) {
    const x = grid[r + a]!
    const y = grid[r + b]!
    if (x < 0 || y < 0) continue
    n++
    keys[0] = x
    if (x === y) {
      counts[0] = 2
      sums.addRow(keys, counts, 1)
    } else {
      keys[1] = y
      counts[0] = 1
      counts[1] = 1
      sums.addRow(keys, counts, 2)
    }
    if (used[x] === 0) {
      used[x] = 1
      distinct++
    }
    if (used[y] === 0) {
      used[y] = 1
      distinct++
    }
  }
  if (n === 0) return { n, ac1: null, pabak: null }
  const ac1 = sums.result(categories)
  return { n, ac1: ac1.ac1, pabak: pabak(ac1.pa, Math.max(categories, distinct)) }
}

export function agreementFromLabels(t: TargetColumns, names: Map<number, string>): DatasetAgreement {
  const h = t.human
  const values = h.values.length
  const categories = t.labels.length
  const labelOf = (code: number) => String(h.values[code])
  const { order, name } = annotatorOrder(h.annotatorIds, names)
  const width = order.length
  // Annotator id → column, as an array: looked up once per label (millions of them).
  const column = new Int32Array(order.reduce((m, a) => Math.max(m, a + 1), 0)).fill(-1)
  order.forEach((a, i) => {
    column[a] = i
  })
  const all = new Subset(values)
  const perVariant = new Map<number, Subset>()
  let labelled = 0
  for (let i = 0; i < t.ids.length; i++) if (h.start[i + 1]! > h.start[i]!) labelled++
  const grid = new Int32Array(labelled * width)
  let cell = 0
  const slot = new Int32Array(width)
  const row = new Int32Array(width)
  const keys = new Int32Array(width)
  const counts = new Int32Array(width)
  for (let i = 0; i < t.ids.length; i++) {
    const s = h.start[i]!
    const e = h.start[i + 1]!
    if (s === e) continue
    slot.fill(-1)
    for (let k = s; k < e; k++) slot[column[h.annotator[k]!]!] = h.code[k]!
    let m = 0
    for (let c = 0; c < width; c++) {
      grid[cell++] = slot[c]!
      if (slot[c]! >= 0) row[m++] = slot[c]!
    }
    all.add(row, m, keys, counts)
    let v = perVariant.get(t.variant[i]!)
    if (!v) {
      v = new Subset(values)
      perVariant.set(t.variant[i]!, v)
    }
    v.add(row, m, keys, counts)
  }
  const cohenPairs: CohenPair[] = []
  for (let a = 0; a < width; a++)
    for (let b = a + 1; b < width; b++) {
      const robust = pairRobust(grid, width, a, b, values, categories)
      cohenPairs.push({
        a: name(order[a]!),
        b: name(order[b]!),
        n: robust.n,
        kappa: cohenOfColumns(grid, width, a, b, values),
        ac1: robust.ac1,
        pabak: robust.pabak,
      })
    }
  const byVariant: Record<string, AgreementSummary> = {}
  const variantNames = [...perVariant.keys()].map((code) => ({ code, name: t.variants[code]! }))
  variantNames.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
  for (const { code, name: variant } of variantNames)
    byVariant[variant] = perVariant.get(code)!.summary(categories, labelOf)
  return { ...all.summary(categories, labelOf), cohenPairs, byVariant, minSharedTargets: MIN_SHARED_TARGETS }
}
