/**
 * The two passes of pairCorrelations.ts's `sparseCoefficients` over pairs that lie cell by cell
 * (canonicalPairColumns puts them so), taken a cell at a time: a pair's values and deviations
 * are its cell's, so the inner loops read only the counts, not the pair, its cell and the cell's
 * values through three lookups. Every sum still adds its terms one drawn pair at a time, in the
 * pairs' order, with the same expressions, so the results are those of the pair-by-pair passes
 * to the last digit. A pair's value may be −0 where its cell's is 0: the term can only be a zero
 * of the other sign, and a sum that starts at 0 is never −0, so adding it changes nothing. Pure.
 */

/**
 * Where each cell's drawn pairs begin among the weights (idx ascending): cell c's are the entries
 * [bounds[c], bounds[c + 1]). `cellStart[c]` is the first pair of cell c.
 */
export function cellBounds(
  cellStart: Int32Array,
  idx: Int32Array,
  from: number,
  to: number,
  bounds: Int32Array,
): void {
  const cells = cellStart.length - 1
  let j = from
  for (let c = 0; c < cells; c++) {
    bounds[c] = j
    const end = cellStart[c + 1]!
    let lo = j
    let hi = to
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (idx[mid]! < end) lo = mid + 1
      else hi = mid
    }
    j = lo
  }
  bounds[cells] = j
}

/**
 * The first pass: each cell's weight into `cw`, and the total weight and the weighted sums of x
 * and y into `out` [W, Σ k·x, Σ k·y].
 */
export function weightedSums(
  cellXValue: Float64Array,
  cellYValue: Float64Array,
  cnt: Int32Array,
  bounds: Int32Array,
  cw: Float64Array,
  out: Float64Array,
): void {
  let W = 0
  let sa = 0
  let sb = 0
  for (let c = 0; c < cw.length; c++) {
    const xc = cellXValue[c]!
    const yc = cellYValue[c]!
    let wc = 0
    for (let j = bounds[c]!; j < bounds[c + 1]!; j++) {
      const k = cnt[j]!
      wc += k
      sa += k * xc
      sb += k * yc
    }
    cw[c] = wc
    W += wc
  }
  out[0] = W
  out[1] = sa
  out[2] = sb
}

/**
 * The second pass: from each cell's four deviations (`dev`, x, y, x's rank, y's rank) the sums
 * of products into `out` [cov, va, vb, rank cov, rank va, rank vb].
 */
export function deviationSums(
  dev: Float64Array,
  cnt: Int32Array,
  bounds: Int32Array,
  cells: number,
  out: Float64Array,
): void {
  let cov = 0
  let va = 0
  let vb = 0
  let rcov = 0
  let rva = 0
  let rvb = 0
  for (let c = 0; c < cells; c++) {
    const from = bounds[c]!
    const to = bounds[c + 1]!
    if (from === to) continue
    const da = dev[4 * c]!
    const db = dev[4 * c + 1]!
    const ea = dev[4 * c + 2]!
    const eb = dev[4 * c + 3]!
    for (let j = from; j < to; j++) {
      const k = cnt[j]!
      cov += k * da * db
      va += k * da * da
      vb += k * db * db
      rcov += k * ea * eb
      rva += k * ea * ea
      rvb += k * eb * eb
    }
  }
  out[0] = cov
  out[1] = va
  out[2] = vb
  out[3] = rcov
  out[4] = rva
  out[5] = rvb
}
