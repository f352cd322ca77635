// Oracle: the summary- and system-level intervals as they were before the thirty-second session
// shared their draws across correlation lines (kept only for the equality tests in
// test/metrics/stats/levelDraws.test.ts and itemLevelOracle.test.ts). Nothing in src imports it.
import { type Interval, interval, mulberry32 } from '../../../src/main/metrics/stats/bootstrap'
import { kendallTauB, pearson, spearman } from '../../../src/main/metrics/stats/correlation'
import type { DocumentCoefficients, ScoredResponse } from '../../../src/main/metrics/stats/levels'

export interface LevelBootstrap {
  seed: number
  replicates: number
  level?: number
}

export interface LevelIntervals {
  pearson: Interval | null
  spearman: Interval | null
  kendallTauB: Interval | null
}

/** levels.ts `documentNumbers` as it was. */
function documentNumbers(rows: readonly ScoredResponse[]): { of: Int32Array; count: number } {
  const n = rows.length
  const order = new Int32Array(n)
  let sorted = true
  for (let i = 0; i < n; i++) {
    order[i] = i
    if (i > 0 && rows[i]!.item < rows[i - 1]!.item) sorted = false
  }
  if (!sorted) order.sort((a, b) => rows[a]!.item - rows[b]!.item || a - b)
  const of = new Int32Array(n)
  let count = 0
  for (let i = 0; i < n; i++) {
    if (i > 0 && rows[order[i]!]!.item !== rows[order[i - 1]!]!.item) count++
    of[order[i]!] = count
  }
  return { of, count: n === 0 ? 0 : count + 1 }
}

const NONE: LevelIntervals = { pearson: null, spearman: null, kendallTauB: null }
const NAMES = ['pearson', 'spearman', 'kendallTauB'] as const

/** How often each of n units was drawn in one resample of n. */
function draw(rand: () => number, counts: Int32Array): Int32Array {
  const n = counts.length
  counts.fill(0)
  for (let k = 0; k < n; k++) counts[Math.floor(rand() * n)]!++
  return counts
}

/** `docs`: levels.ts `documentCoefficients`, worked out once for the figure and its interval. */
export function summaryLevelIntervals(docs: DocumentCoefficients, boot: LevelBootstrap): LevelIntervals {
  const n = docs.pearson.length
  if (n === 0 || boot.replicates === 0) return NONE
  const rand = mulberry32(boot.seed)
  const p = Float64Array.from(docs.pearson)
  const sp = Float64Array.from(docs.spearman)
  const k = Float64Array.from(docs.kendallTauB)
  const draws = {
    pearson: new Float64Array(boot.replicates),
    spearman: new Float64Array(boot.replicates),
    kendallTauB: new Float64Array(boot.replicates),
  }
  // One pass per resample sums all three coefficients: every correlation line pays for it.
  for (let r = 0; r < boot.replicates; r++) {
    let a = 0
    let b = 0
    let c = 0
    for (let t = 0; t < n; t++) {
      const d = Math.floor(rand() * n)
      a += p[d]!
      b += sp[d]!
      c += k[d]!
    }
    draws.pearson[r] = a / n
    draws.spearman[r] = b / n
    draws.kendallTauB[r] = c / n
  }
  const level = boot.level ?? 0.95
  return {
    pearson: interval(draws.pearson, boot.replicates, level),
    spearman: interval(draws.spearman, boot.replicates, level),
    kendallTauB: interval(draws.kendallTauB, boot.replicates, level),
  }
}

/**
 * Each (document, system) cell's sums, so a resample weighs cells instead of rereading rows. In
 * typed arrays: every resample of every correlation line walks all of them.
 */
function cellsOf(rows: readonly ScoredResponse[]) {
  // Documents and systems numbered in a canonical order, so the same rows in any order draw the
  // same resamples.
  const docOf = documentNumbers(rows)
  const docs = docOf.count
  const sysIndex = new Map(
    [...new Set(rows.map((r) => r.variant))]
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((s, i) => [s, i]),
  )
  const systems = sysIndex.size
  // Each (document, system) cell's place, in the order the rows first reach it.
  const cellIndex = new Int32Array(docs * systems).fill(-1)
  const doc = new Int32Array(rows.length)
  const sys = new Int32Array(rows.length)
  const judge = new Float64Array(rows.length)
  const human = new Float64Array(rows.length)
  const count = new Int32Array(rows.length)
  let cells = 0
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!
    const d = docOf.of[i]!
    const s = sysIndex.get(r.variant)!
    const key = d * systems + s
    let c = cellIndex[key]!
    if (c < 0) {
      c = cells++
      cellIndex[key] = c
      doc[c] = d
      sys[c] = s
    }
    judge[c]! += r.judge
    human[c]! += r.human
    count[c]!++
  }
  return {
    docs,
    systems: sysIndex.size,
    cells,
    doc,
    sys,
    judge,
    human,
    count,
    byDoc: byDocument(doc, sys, cells, docs),
  }
}

/**
 * The cells document by document, so a resample visits only the documents it drew (about a
 * third are not drawn). Null where that would change the order in which a system's cells are
 * added up (a system's cells not in the order of their documents), and with it the last digits.
 */
function byDocument(doc: Int32Array, sys: Int32Array, cells: number, docs: number) {
  const last = new Map<number, number>()
  for (let k = 0; k < cells; k++) {
    if ((last.get(sys[k]!) ?? -1) >= doc[k]!) return null
    last.set(sys[k]!, doc[k]!)
  }
  const start = new Int32Array(docs + 1)
  for (let k = 0; k < cells; k++) start[doc[k]! + 1]!++
  for (let d = 0; d < docs; d++) start[d + 1]! += start[d]!
  const fill = start.slice(0, docs)
  const cell = new Int32Array(cells)
  for (let k = 0; k < cells; k++) cell[fill[doc[k]!]!++] = k
  return { start, cell }
}

export function systemLevelIntervals(rows: readonly ScoredResponse[], boot: LevelBootstrap): LevelIntervals {
  const c = cellsOf(rows)
  if (c.systems < 2 || boot.replicates === 0) return NONE
  const rand = mulberry32(boot.seed)
  const docCounts = new Int32Array(c.docs)
  const sysCounts = new Int32Array(c.systems)
  const j = new Float64Array(c.systems)
  const h = new Float64Array(c.systems)
  const w = new Float64Array(c.systems)
  const draws = {
    pearson: new Float64Array(boot.replicates),
    spearman: new Float64Array(boot.replicates),
    kendallTauB: new Float64Array(boot.replicates),
  }
  const drawn = { pearson: 0, spearman: 0, kendallTauB: 0 }
  const byDoc = c.byDoc
  for (let r = 0; r < boot.replicates; r++) {
    draw(rand, docCounts)
    draw(rand, sysCounts)
    j.fill(0)
    h.fill(0)
    w.fill(0)
    if (byDoc !== null)
      for (let d = 0; d < c.docs; d++) {
        const m = docCounts[d]!
        if (m === 0) continue
        for (let q = byDoc.start[d]!; q < byDoc.start[d + 1]!; q++) {
          const k = byDoc.cell[q]!
          const s = c.sys[k]!
          j[s]! += m * c.judge[k]!
          h[s]! += m * c.human[k]!
          w[s]! += m * c.count[k]!
        }
      }
    else
      for (let k = 0; k < c.cells; k++) {
        const m = docCounts[c.doc[k]!]!
        if (m === 0) continue
        const s = c.sys[k]!
        j[s]! += m * c.judge[k]!
        h[s]! += m * c.human[k]!
        w[s]! += m * c.count[k]!
      }
    // A system drawn twice is two points, as a pair drawn twice is in the pooled bootstrap; a
    // system with no response in the drawn documents has no mean and sits this resample out.
    const x: number[] = []
    const y: number[] = []
    for (let s = 0; s < c.systems; s++)
      for (let t = 0; t < sysCounts[s]! && w[s]! > 0; t++) {
        x.push(j[s]! / w[s]!)
        y.push(h[s]! / w[s]!)
      }
    const got = { pearson: pearson(x, y), spearman: spearman(x, y), kendallTauB: kendallTauB(x, y) }
    for (const name of NAMES) {
      const v = got[name]
      if (v !== null) draws[name][drawn[name]++] = v
    }
  }
  const level = boot.level ?? 0.95
  // A coefficient undefined in most resamples (systems whose means hardly differ) gets none.
  const ci = (name: (typeof NAMES)[number]) =>
    drawn[name] < boot.replicates / 2 ? null : interval(draws[name], drawn[name], level)
  return { pearson: ci('pearson'), spearman: ci('spearman'), kendallTauB: ci('kendallTauB') }
}
