/**
 * Pearson, Spearman and Kendall τ-b of a fixed set of pairs in one go, each pair counted `w[i]`
 * times. A bootstrap resample of n pairs is exactly such a weighting (how often each pair was
 * drawn), so the pairs are prepared once and a resample costs two passes over them plus a pass
 * over the distinct (x, y) cells. Item scores are shares of a handful of units, so a few dozen
 * cells usually hold thousands of pairs. Pure.
 *
 * Floating-point sums are order-sensitive, so every sum that is not exact is taken pair by pair
 * in the caller's pair order, as a plain two-pass Pearson does. The sums that move to cells are
 * exact: rank sums (integers and halves) and τ-b's pair counts (integers), all far below 2^53
 * while the total weight stays under 2^25 (EXACT_CELLS); above that the rank sums go pair by
 * pair too. Pairs of weight zero are skipped, as a pair-by-pair pass skips them. Values must be
 * finite (item scores are).
 */

import { cellBounds, deviationSums, weightedSums } from './cellRuns'
import { denseRanks } from './denseRanks'

const EXACT_CELLS = 2 ** 25

export interface PairColumns {
  n: number
  /** the pairs, in the caller's order */
  x: Float64Array
  y: Float64Array
  /** per pair: rank of its x among the distinct x values, of its y, and its (x, y) cell */
  xv: Int32Array
  yv: Int32Array
  cell: Int32Array
  nx: number
  ny: number
  /** cells in (x, y) order: their x and y ranks */
  cellX: Int32Array
  cellY: Int32Array
  /** the x and y value of each cell */
  cellXValue: Float64Array
  cellYValue: Float64Array
  /** cell c's pairs at [cellStart[c], cellStart[c + 1]) where the pairs lie cell by cell, else null */
  cellStart: Int32Array | null
  // scratch, reused by every call
  cw: Float64Array
  xw: Float64Array
  yw: Float64Array
  dx: Float64Array
  dy: Float64Array
  tree: Float64Array
  dev: Float64Array
  bounds: Int32Array
  sums: Float64Array
}

/** Pair columns of the pairs taken in `order` (indexes into x and y), ranks already known. */
function columns(
  x: Float64Array,
  y: Float64Array,
  X: { rank: Int32Array; count: number },
  Y: { rank: Int32Array; count: number },
  order: Int32Array | null,
): PairColumns {
  const n = x.length
  const at = (k: number) => (order ? order[k]! : k)
  const xs = new Float64Array(n)
  const ys = new Float64Array(n)
  const xv = new Int32Array(n)
  const yv = new Int32Array(n)
  const key = new Float64Array(n)
  for (let k = 0; k < n; k++) {
    const i = at(k)
    xs[k] = x[i]!
    ys[k] = y[i]!
    xv[k] = X.rank[i]!
    yv[k] = Y.rank[i]!
    key[k] = X.rank[i]! * Y.count + Y.rank[i]!
  }
  const C = denseRanks(key)
  const cellX = new Int32Array(C.count)
  const cellY = new Int32Array(C.count)
  const cellXValue = new Float64Array(C.count)
  const cellYValue = new Float64Array(C.count)
  let cellStart: Int32Array | null = new Int32Array(C.count + 1)
  for (let k = 0; k < n; k++) {
    if (k > 0 && C.rank[k]! < C.rank[k - 1]!) cellStart = null
    if (cellStart !== null && (k === 0 || C.rank[k] !== C.rank[k - 1])) cellStart[C.rank[k]!] = k
    cellX[C.rank[k]!] = xv[k]!
    cellY[C.rank[k]!] = yv[k]!
    cellXValue[C.rank[k]!] = xs[k]!
    cellYValue[C.rank[k]!] = ys[k]!
  }
  if (cellStart !== null) cellStart[C.count] = n
  return {
    n,
    x: xs,
    y: ys,
    xv,
    yv,
    cell: C.rank,
    nx: X.count,
    ny: Y.count,
    cellX,
    cellY,
    cellXValue,
    cellYValue,
    cellStart,
    cw: new Float64Array(C.count),
    xw: new Float64Array(X.count),
    yw: new Float64Array(Y.count),
    dx: new Float64Array(X.count),
    dy: new Float64Array(Y.count),
    tree: new Float64Array(Y.count + 1),
    dev: new Float64Array(4 * C.count),
    bounds: new Int32Array(C.count + 1),
    sums: new Float64Array(6),
  }
}

/** The pairs as given, in the caller's order. */
export function preparePairColumns(x: ArrayLike<number>, y: ArrayLike<number>): PairColumns {
  if (y.length !== x.length) throw new Error('preparePairColumns: lists differ in length')
  const xs = Float64Array.from(x)
  const ys = Float64Array.from(y)
  return columns(xs, ys, denseRanks(xs), denseRanks(ys), null)
}

/**
 * The pairs in a canonical order: by x, then y, then given position (a stable sort), so the same
 * pairs given in any order sum in the same order. The sort runs on packed numbers
 * (cell · n + position) without a comparator while they stay exact.
 */
export function canonicalPairColumns(x: ArrayLike<number>, y: ArrayLike<number>): PairColumns {
  const n = x.length
  if (y.length !== n) throw new Error('canonicalPairColumns: lists differ in length')
  // Only read: typed columns are taken as they are, without a copy.
  const xs = x instanceof Float64Array ? x : Float64Array.from(x)
  const ys = y instanceof Float64Array ? y : Float64Array.from(y)
  const X = denseRanks(xs)
  const Y = denseRanks(ys)
  let order: Int32Array
  const cells = X.count * Y.count
  if (cells <= 2 * n + 1024) {
    // Few possible cells (shares of a few units): a counting sort, stable by position.
    const at = new Int32Array(cells + 1)
    for (let i = 0; i < n; i++) at[X.rank[i]! * Y.count + Y.rank[i]! + 1]!++
    for (let c = 0; c < cells; c++) at[c + 1]! += at[c]!
    order = new Int32Array(n)
    for (let i = 0; i < n; i++) order[at[X.rank[i]! * Y.count + Y.rank[i]!]!++] = i
  } else if (cells * n < 2 ** 53) {
    const packed = new Float64Array(n)
    for (let i = 0; i < n; i++) packed[i] = (X.rank[i]! * Y.count + Y.rank[i]!) * n + i
    packed.sort()
    order = new Int32Array(n)
    for (let k = 0; k < n; k++) order[k] = packed[k]! % n
  } else {
    order = Int32Array.from({ length: n }, (_, i) => i).sort(
      (a, b) => X.rank[a]! - X.rank[b]! || Y.rank[a]! - Y.rank[b]! || a - b,
    )
  }
  return columns(xs, ys, X, Y, order)
}

/** The three coefficients; NaN where one is undefined (too few pairs, a constant side). */
export interface Coefficients {
  pearson: number
  spearman: number
  kendallTauB: number
}

/** r from the deviation sums, with relative guards: a constant side has no correlation. */
function finish(cov: number, va: number, vb: number, W: number): number {
  if (va <= 1e-24 * W || vb <= 1e-24 * W) return Number.NaN
  const r = cov / Math.sqrt(va * vb)
  return Number.isFinite(r) ? Math.max(-1, Math.min(1, r)) : Number.NaN
}

/** Midranks from weights per distinct value: a group of weight G after C gets C + (G + 1) / 2. */
function midranks(weight: Float64Array, out: Float64Array): void {
  let before = 0
  for (let v = 0; v < weight.length; v++) {
    out[v] = before + (weight[v]! + 1) / 2
    before += weight[v]!
  }
}

/**
 * A weighting as the pairs that carry weight: pair idx[j] counted cnt[j] times for j in
 * [from, to), idx ascending. A resample leaves about a third of the pairs out, so passes over
 * these lists skip them (their terms would be exact zeros: nothing changes).
 */
export interface SparseWeights {
  idx: Int32Array
  cnt: Int32Array
  from: number
  to: number
}

/** The pairs with a nonzero weight in w, in order. */
export function sparseWeights(w: ArrayLike<number>): SparseWeights {
  const idx = new Int32Array(w.length)
  const cnt = new Int32Array(w.length)
  let m = 0
  for (let i = 0; i < w.length; i++)
    if (w[i] !== 0) {
      idx[m] = i
      cnt[m++] = w[i]!
    }
  return { idx, cnt, from: 0, to: m }
}

export function pairCoefficients(p: PairColumns, w: ArrayLike<number>, out: Coefficients): Coefficients {
  return sparseCoefficients(p, sparseWeights(w), out)
}

export function sparseCoefficients(p: PairColumns, sw: SparseWeights, out: Coefficients): Coefficients {
  const { x, y, xv, yv, cell, cw, xw, yw, dx, dy, cellStart, bounds, sums } = p
  const { idx, cnt, from, to } = sw
  let W = 0
  let sa = 0
  let sb = 0
  if (cellStart !== null) {
    // Pairs cell by cell: the same sums a cell at a time (cellRuns.ts).
    cellBounds(cellStart, idx, from, to, bounds)
    weightedSums(p.cellXValue, p.cellYValue, cnt, bounds, cw, sums)
    W = sums[0]!
    sa = sums[1]!
    sb = sums[2]!
  } else {
    cw.fill(0)
    for (let j = from; j < to; j++) {
      const i = idx[j]!
      const k = cnt[j]!
      W += k
      sa += k * x[i]!
      sb += k * y[i]!
      cw[cell[i]!]! += k
    }
  }
  out.pearson = Number.NaN
  out.spearman = Number.NaN
  out.kendallTauB = Number.NaN
  if (W < 2) return out
  xw.fill(0)
  yw.fill(0)
  for (let c = 0; c < cw.length; c++) {
    xw[p.cellX[c]!]! += cw[c]!
    yw[p.cellY[c]!]! += cw[c]!
  }
  // Ranks per distinct value, then their deviations from the mean rank.
  midranks(xw, dx)
  midranks(yw, dy)
  let ra = 0
  let rb = 0
  if (W < EXACT_CELLS) {
    for (let v = 0; v < dx.length; v++) ra += xw[v]! * dx[v]!
    for (let v = 0; v < dy.length; v++) rb += yw[v]! * dy[v]!
  } else {
    for (let j = from; j < to; j++) {
      const i = idx[j]!
      const k = cnt[j]!
      ra += k * dx[xv[i]!]!
      rb += k * dy[yv[i]!]!
    }
  }
  const mra = ra / W
  const mrb = rb / W
  for (let v = 0; v < dx.length; v++) dx[v] = dx[v]! - mra
  for (let v = 0; v < dy.length; v++) dy[v] = dy[v]! - mrb
  const ma = sa / W
  const mb = sb / W
  // Deviations depend only on a pair's cell: four per cell, looked up by one index per pair.
  // (A −0 against a 0 in the same cell can only flip the sign of a zero term, which moves no sum.)
  const { dev, cellXValue, cellYValue, cellX, cellY } = p
  for (let c = 0; c < cw.length; c++) {
    dev[4 * c] = cellXValue[c]! - ma
    dev[4 * c + 1] = cellYValue[c]! - mb
    dev[4 * c + 2] = dx[cellX[c]!]!
    dev[4 * c + 3] = dy[cellY[c]!]!
  }
  let cov = 0
  let va = 0
  let vb = 0
  let rcov = 0
  let rva = 0
  let rvb = 0
  if (cellStart !== null) {
    deviationSums(dev, cnt, bounds, cw.length, sums)
    cov = sums[0]!
    va = sums[1]!
    vb = sums[2]!
    rcov = sums[3]!
    rva = sums[4]!
    rvb = sums[5]!
  } else
    for (let j = from; j < to; j++) {
      const k = cnt[j]!
      const c = 4 * cell[idx[j]!]!
      const da = dev[c]!
      const db = dev[c + 1]!
      cov += k * da * db
      va += k * da * da
      vb += k * db * db
      const ea = dev[c + 2]!
      const eb = dev[c + 3]!
      rcov += k * ea * eb
      rva += k * ea * ea
      rvb += k * eb * eb
    }
  out.pearson = finish(cov, va, vb, W)
  out.spearman = finish(rcov, rva, rvb, W)
  out.kendallTauB = kendallOverCells(p, W)
  return out
}

/**
 * τ-b = (C − D) / √((n0 − Tx)(n0 − Ty)) over the weighted cells: walking cells in x order, each
 * meets the earlier x groups through a Fenwick tree of weights by y rank. Every quantity is an
 * integer, so the result is the one a pair-by-pair count gives.
 */
function kendallOverCells(p: PairColumns, W: number): number {
  const { cw, cellX, cellY, yw, tree } = p
  const m = p.ny
  tree.fill(0)
  const below = (r: number) => {
    let s = 0
    for (let i = r; i > 0; i -= i & -i) s += tree[i]!
    return s
  }
  let seen = 0
  let s = 0
  let tiesX = 0
  const cells = cw.length
  let c = 0
  while (c < cells) {
    let end = c
    while (end < cells && cellX[end] === cellX[c]) end++
    let groupW = 0
    for (let j = c; j < end; j++) {
      const wc = cw[j]!
      if (wc === 0) continue
      const r = cellY[j]!
      const lower = below(r)
      const higher = seen - below(r + 1)
      s += wc * (lower - higher)
      groupW += wc
    }
    tiesX += (groupW * (groupW - 1)) / 2
    for (let j = c; j < end; j++) {
      const wc = cw[j]!
      if (wc === 0) continue
      for (let i = cellY[j]! + 1; i <= m; i += i & -i) tree[i]! += wc
    }
    seen += groupW
    c = end
  }
  let tiesY = 0
  for (let v = 0; v < m; v++) tiesY += (yw[v]! * (yw[v]! - 1)) / 2
  const n0 = (W * (W - 1)) / 2
  const denom = Math.sqrt((n0 - tiesX) * (n0 - tiesY))
  if (!(denom > 0)) return Number.NaN
  return Math.max(-1, Math.min(1, s / denom))
}
