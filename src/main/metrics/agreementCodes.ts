import { MIN_SHARED_TARGETS } from '../../shared/smallSample'
import type { AgreementSummary, CohenPair, DatasetAgreement } from './agreementService'
import { annotatorOrder } from './humans'
import type { TargetColumns } from './load'
import { groupSourcePairs, pairOf } from './sourcePairs'
import { alphaFromCoincidences } from './stats/agreement'
import { Ac1Sums } from './stats/gwet'
import { pabak } from './stats/pabak'
import { percentAgreementCi } from './stats/smallSample'

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
    if (m === 1) {
      this.addOne(row[0]!)
      return
    }
    if (m === 2) {
      this.addTwo(row[0]!, row[1]!)
      return
    }
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

  /** `add` of a row with one code: first seen, and AC1's propensities (no pair to count). */
  private addOne(x: number): void {
    if (this.alphaIndex[x]! < 0) this.alphaIndex[x] = this.k++
    this.ac1.addOne(x)
  }

  /** `add` of a row with two codes, x then y: the same additions in the same order, unrolled. */
  private addTwo(x: number, y: number): void {
    const alpha = this.alphaIndex
    if (alpha[x]! < 0) alpha[x] = this.k++
    if (alpha[y]! < 0) alpha[y] = this.k++
    this.ac1.addTwo(x, y)
    this.n++
    const totals = this.totals
    const o = this.o
    const v = this.values
    // w = 1 / (m − 1) = 1; each ordered pair of different positions adds it once.
    if (x === y) {
      this.pairSum += 2 / 2
      this.total += 2
      if (totals[x] === 0) this.totalsOrder.push(x)
      totals[x]! += 2
      const c = alpha[x]! * v + alpha[x]!
      o[c]! += 1
      o[c]! += 1
    } else {
      this.pairSum += 0 / 2
      this.total += 2
      if (totals[x] === 0) this.totalsOrder.push(x)
      totals[x]! += 1
      if (totals[y] === 0) this.totalsOrder.push(y)
      totals[y]! += 1
      o[alpha[x]! * v + alpha[y]!]! += 1
      o[alpha[y]! * v + alpha[x]!]! += 1
    }
  }

  summary(categories: number, labelOf: (code: number) => string): AgreementSummary {
    const items = this.n
    if (items === 0)
      return {
        n: 0,
        percent: null,
        percentCi: null,
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
      percentCi: percentAgreementCi(this.pairSum / items, items),
      fleissKappa: pe >= 1 - 1e-12 ? null : (this.pairSum / items - pe) / (1 - pe),
      krippendorffAlpha: alphaFromCoincidences(o, k, NOMINAL),
      ac1: this.ac1.result(q).ac1,
      pabak: pabak(this.pairSum / items, q),
      dominantLabel: top < 0 ? null : labelOf(top),
      dominantShare: top < 0 ? null : this.totals[top]! / this.total,
    }
  }
}

/**
 * Cohen's κ, AC1 and PABAK of two annotators over the targets both labelled, gathered target by
 * target as `cohenKappa` and `robustFigures` go through the rows [x, y]: the same sums in the
 * same order, without a column per annotator to scan once per pair.
 */
class PairTally {
  n = 0
  same = 0
  /** κ's marginals, and the first column's values in first-seen order */
  readonly ma: Int32Array
  readonly mb: Int32Array
  readonly order: number[] = []
  readonly sums: Ac1Sums
  /** values either annotator gave (PABAK's category count) */
  readonly used: Uint8Array
  distinct = 0

  constructor(values: number) {
    this.ma = new Int32Array(values)
    this.mb = new Int32Array(values)
    this.sums = new Ac1Sums(values)
    this.used = new Uint8Array(values)
  }

  add(x: number, y: number): void {
    this.n++
    if (x === y) this.same++
    if (this.ma[x] === 0) this.order.push(x)
    this.ma[x]!++
    this.mb[y]!++
    this.sums.addTwo(x, y)
    if (this.used[x] === 0) {
      this.used[x] = 1
      this.distinct++
    }
    if (this.used[y] === 0) {
      this.used[y] = 1
      this.distinct++
    }
  }

  kappa(): CohenPair['kappa'] {
    const n = this.n
    if (n === 0) return null
    let pe = 0
    for (const c of this.order) pe += (this.ma[c]! / n) * (this.mb[c]! / n)
    if (pe >= 1 - 1e-12) return null
    return (this.same / n - pe) / (1 - pe)
  }

  robust(categories: number): { n: number; ac1: number | null; pabak: number | null } {
    if (this.n === 0) return { n: 0, ac1: null, pabak: null }
    const ac1 = this.sums.result(categories)
    return { n: this.n, ac1: ac1.ac1, pabak: pabak(ac1.pa, Math.max(categories, this.distinct)) }
  }
}

/** The label columns the agreement figures read (a worker thread is handed these alone). */
export type AgreementColumns = Pick<TargetColumns, 'human' | 'labels' | 'variant' | 'variants'> & {
  ids: { readonly length: number }
}

/**
 * `sources`: the ids of the dataset's own reference labels. Their pairs go to `sourcePairs`; the
 * overall and per-variant figures count people alone (a source never counts towards agreement).
 */
export function agreementFromLabels(
  t: AgreementColumns,
  names: Map<number, string>,
  sources: ReadonlySet<number> = new Set(),
): DatasetAgreement {
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
  const people = new Scope(values, t.variants.length)
  // Pair (a, b), a < b, at a · width + b.
  const pairs: PairTally[] = new Array(width * width)
  for (let a = 0; a < width; a++)
    for (let b = a + 1; b < width; b++) pairs[a * width + b] = new PairTally(values)
  const slot = new Int32Array(width).fill(-1)
  const sourceColumn = new Uint8Array(width)
  order.forEach((a, i) => {
    if (sources.has(a)) sourceColumn[i] = 1
  })
  const anySource = sourceColumn.includes(1)
  // The release's annotators among themselves, where there are two or more.
  const sourceCount = sourceColumn.reduce((n, x) => n + x, 0)
  const released = sourceCount >= 2 ? new Scope(values, t.variants.length) : null
  // The people's and the sources' codes of a row, when a source labelled the dataset too.
  const personCodes = new Int32Array(width)
  const sourceCodes = new Int32Array(width)
  // The row's present codes in column order, and their columns.
  const row = new Int32Array(width)
  const cols = new Int32Array(width)
  const keys = new Int32Array(width)
  const counts = new Int32Array(width)
  const { start, annotator, code } = h
  for (let i = 0; i < t.ids.length; i++) {
    const s = start[i]!
    const e = start[i + 1]!
    if (s === e) continue
    let m: number
    const c0 = column[annotator[s]!]!
    if (e - s === 1) {
      row[0] = code[s]!
      cols[0] = c0
      m = 1
    } else if (e - s === 2 && c0 !== column[annotator[s + 1]!]) {
      const c1 = column[annotator[s + 1]!]!
      const first = c0 < c1 ? s : s + 1
      row[0] = code[first]!
      row[1] = code[first === s ? s + 1 : s]!
      cols[0] = Math.min(c0, c1)
      cols[1] = Math.max(c0, c1)
      m = 2
    } else {
      // Any other shape through one slot per column (a later label of the same annotator wins).
      for (let k = s; k < e; k++) slot[column[annotator[k]!]!] = code[k]!
      m = 0
      for (let c = 0; c < width; c++)
        if (slot[c]! >= 0) {
          row[m] = slot[c]!
          cols[m++] = c
          slot[c] = -1
        }
    }
    for (let p = 0; p < m; p++)
      for (let q = p + 1; q < m; q++) pairs[cols[p]! * width + cols[q]!]!.add(row[p]!, row[q]!)
    const vc = t.variant[i]!
    if (!anySource) {
      people.add(row, m, vc, keys, counts)
      continue
    }
    let mp = 0
    let ms = 0
    for (let p = 0; p < m; p++)
      if (sourceColumn[cols[p]!] === 0) personCodes[mp++] = row[p]!
      else sourceCodes[ms++] = row[p]!
    if (mp > 0) people.add(personCodes, mp, vc, keys, counts)
    if (ms > 0) released?.add(sourceCodes, ms, vc, keys, counts)
  }
  const cohenPairs: CohenPair[] = []
  const sourcePairs: CohenPair[] = []
  for (let a = 0; a < width; a++)
    for (let b = a + 1; b < width; b++) {
      const tally = pairs[a * width + b]!
      const robust = tally.robust(categories)
      const pair = pairOf(name(order[a]!), name(order[b]!), sourceColumn[a] === 1, sourceColumn[b] === 1)
      ;(pair.kind === 'people' ? cohenPairs : sourcePairs).push({
        ...pair,
        n: robust.n,
        kappa: tally.kappa(),
        ac1: robust.ac1,
        pabak: robust.pabak,
      })
    }
  const summary = (scope: Scope) => scope.summary(t.variants, categories, labelOf)
  const among = released && summary(released)
  const theirs = summary(people)
  return {
    ...theirs.all,
    cohenPairs,
    sourcePairs: groupSourcePairs(sourcePairs),
    amongSources: among && {
      ...among.all,
      names: order.flatMap((a, i) => (sourceColumn[i] === 1 ? [name(a)] : [])),
      byVariant: among.byVariant,
    },
    byVariant: theirs.byVariant,
    minSharedTargets: MIN_SHARED_TARGETS,
  }
}

/** One scope's running sums (the people's, or the release's annotators'): all rows and by variant. */
class Scope {
  readonly all: Subset
  /** By variant code: a target's subset without a lookup by key. */
  private readonly perVariant: (Subset | undefined)[]

  constructor(
    private readonly values: number,
    variants: number,
  ) {
    this.all = new Subset(values)
    this.perVariant = new Array(variants)
  }

  add(row: Int32Array, m: number, variant: number, keys: Int32Array, counts: Int32Array): void {
    this.all.add(row, m, keys, counts)
    let v = this.perVariant[variant]
    if (!v) {
      v = new Subset(this.values)
      this.perVariant[variant] = v
    }
    v.add(row, m, keys, counts)
  }

  summary(variants: readonly string[], categories: number, labelOf: (code: number) => string) {
    const byVariant: Record<string, AgreementSummary> = {}
    const named: { code: number; name: string }[] = []
    this.perVariant.forEach((subset, code) => {
      if (subset) named.push({ code, name: variants[code]! })
    })
    named.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
    for (const { code, name } of named) byVariant[name] = this.perVariant[code]!.summary(categories, labelOf)
    return { all: this.all.summary(categories, labelOf), byVariant }
  }
}
