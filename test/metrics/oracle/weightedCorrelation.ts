// Oracle: the item-level code as it was before the columnar rewrite (kept only for the
// equality tests in itemLevelOracle.test.ts and pairCorrelations.test.ts). Nothing in src imports it.
/**
 * Pearson, Spearman and Kendall τ-b of a fixed set of pairs, each pair counted `w[i]` times.
 * A bootstrap resample of n pairs is exactly such a weighting (how often each pair was drawn), so
 * the pairs are sorted once and every resample costs O(n log n) without copying or re-sorting:
 * what makes a bootstrap over thousands of items affordable. Pure.
 *
 * With every weight 1 the figures equal the plain ones (midranks for ties, τ-b's tie correction);
 * the tests check that against the unweighted functions and a brute-force pair count.
 */

export interface PreparedPairs {
  n: number
  x: Float64Array
  y: Float64Array
  /** pair indexes in x order / y order */
  byX: Int32Array
  byY: Int32Array
  /** dense rank of each pair's y among the distinct y values (0-based), and their count */
  yRank: Int32Array
  yDistinct: number
  // scratch, reused by every call
  rx: Float64Array
  ry: Float64Array
  tree: Float64Array
}

export function preparePairs(x: readonly number[], y: readonly number[]): PreparedPairs {
  const n = x.length
  if (y.length !== n) throw new Error('preparePairs: lists differ in length')
  const xs = Float64Array.from(x)
  const ys = Float64Array.from(y)
  const idx = () => Int32Array.from({ length: n }, (_, i) => i)
  const byX = idx().sort((a, b) => xs[a]! - xs[b]! || ys[a]! - ys[b]!)
  const byY = idx().sort((a, b) => ys[a]! - ys[b]!)
  const yRank = new Int32Array(n)
  let distinct = 0
  for (let k = 0; k < n; k++) {
    if (k > 0 && ys[byY[k]!] !== ys[byY[k - 1]!]) distinct++
    yRank[byY[k]!] = distinct
  }
  return {
    n,
    x: xs,
    y: ys,
    byX,
    byY,
    yRank,
    yDistinct: n === 0 ? 0 : distinct + 1,
    rx: new Float64Array(n),
    ry: new Float64Array(n),
    tree: new Float64Array((n === 0 ? 0 : distinct + 1) + 1),
  }
}

function pearsonOf(a: Float64Array, b: Float64Array, w: ArrayLike<number>, n: number): number | null {
  let W = 0
  let sa = 0
  let sb = 0
  for (let i = 0; i < n; i++) {
    const k = w[i]!
    if (k === 0) continue
    W += k
    sa += k * a[i]!
    sb += k * b[i]!
  }
  if (W < 2) return null
  const ma = sa / W
  const mb = sb / W
  let cov = 0
  let va = 0
  let vb = 0
  for (let i = 0; i < n; i++) {
    const k = w[i]!
    if (k === 0) continue
    const da = a[i]! - ma
    const db = b[i]! - mb
    cov += k * da * db
    va += k * da * da
    vb += k * db * db
  }
  // Relative guards: a constant side has (numerically) no variance, and no correlation.
  if (va <= 1e-24 * W || vb <= 1e-24 * W) return null
  const r = cov / Math.sqrt(va * vb)
  return Number.isFinite(r) ? Math.max(-1, Math.min(1, r)) : null
}

/** Weighted midranks along a sorted order: a tie group of total weight G after C gets C + (G + 1) / 2. */
function midranks(values: Float64Array, order: Int32Array, w: ArrayLike<number>, out: Float64Array): void {
  const n = order.length
  let before = 0
  let k = 0
  while (k < n) {
    let end = k
    let group = 0
    while (end < n && values[order[end]!] === values[order[k]!]) {
      group += w[order[end]!]!
      end++
    }
    const rank = before + (group + 1) / 2
    for (let j = k; j < end; j++) out[order[j]!] = rank
    before += group
    k = end
  }
}

export function weightedPearson(p: PreparedPairs, w: ArrayLike<number>): number | null {
  return pearsonOf(p.x, p.y, w, p.n)
}

export function weightedSpearman(p: PreparedPairs, w: ArrayLike<number>): number | null {
  midranks(p.x, p.byX, w, p.rx)
  midranks(p.y, p.byY, w, p.ry)
  return pearsonOf(p.rx, p.ry, w, p.n)
}

/**
 * τ-b = (C − D) / √((n0 − Tx)(n0 − Ty)) over the weighted multiset: walking pairs in x order,
 * each pair meets the earlier x groups through a Fenwick tree of weights by y rank.
 */
export function weightedKendallTauB(p: PreparedPairs, w: ArrayLike<number>): number | null {
  const { n, x, y, byX, byY, yRank, tree } = p
  const m = p.yDistinct
  tree.fill(0)
  const add = (r: number, v: number) => {
    for (let i = r + 1; i <= m; i += i & -i) tree[i]! += v
  }
  const below = (r: number) => {
    let s = 0
    for (let i = r; i > 0; i -= i & -i) s += tree[i]!
    return s
  }
  let W = 0
  let seen = 0
  let s = 0
  let tiesX = 0
  let k = 0
  while (k < n) {
    let end = k
    while (end < n && x[byX[end]!] === x[byX[k]!]) end++
    let groupW = 0
    for (let j = k; j < end; j++) {
      const i = byX[j]!
      const wi = w[i]!
      if (wi === 0) continue
      const r = yRank[i]!
      const lower = below(r)
      const higher = seen - below(r + 1)
      s += wi * (lower - higher)
      groupW += wi
    }
    tiesX += (groupW * (groupW - 1)) / 2
    for (let q = k; q < end; q++) {
      const i = byX[q]!
      if (w[i]! !== 0) add(yRank[i]!, w[i]!)
    }
    seen += groupW
    W += groupW
    k = end
  }
  if (W < 2) return null
  let tiesY = 0
  for (let q = 0, a = 0; q < n; q = a) {
    let g = 0
    a = q
    while (a < n && y[byY[a]!] === y[byY[q]!]) g += w[byY[a++]!]!
    tiesY += (g * (g - 1)) / 2
  }
  const n0 = (W * (W - 1)) / 2
  const denom = Math.sqrt((n0 - tiesX) * (n0 - tiesY))
  if (!(denom > 0)) return null
  return Math.max(-1, Math.min(1, s / denom))
}
