import { type Interval, interval, mulberry32 } from './bootstrap'
import { kendallTauB, pearson, spearman } from './correlation'
import { type HumanKey, type LevelBootstrap, LevelDraws, type SystemResample } from './levelDraws'
import type { DocumentCoefficients } from './levels'
import {
  documentNumbers,
  type ScoredColumns,
  type ScoredResponse,
  scoredColumns,
  systemNumbers,
} from './scoredColumns'
import { type Coefficients, SHORT, shortCoefficients } from './smallCorrelations'

/**
 * Percentile bootstrap intervals for the summary- and system-level correlations (levels.ts),
 * resampling the units each level is made of, as Deutsch, Dror and Roth (2021, "A Statistical
 * Analysis of Summarization Evaluation Metrics using Resampling Methods") do. Pure and seeded:
 * the same rows and seed give the same interval on every open.
 * - summary level: documents are drawn with replacement and their coefficients averaged (their
 *   BOOT-INPUTS). Each document keeps the coefficient it has over its own systems: redrawing
 *   systems inside every document too would cost a correlation per document per resample.
 * - system level: documents and systems are both drawn (their BOOT-BOTH, which they recommend):
 *   a system's means are taken over the drawn documents, then correlated across the drawn
 *   systems, so a system-level figure over three documents no longer reads as if its means were
 *   exact.
 */

export type { LevelBootstrap }

export interface LevelIntervals {
  pearson: Interval | null
  spearman: Interval | null
  kendallTauB: Interval | null
}

const NONE: LevelIntervals = { pearson: null, spearman: null, kendallTauB: null }
const NAMES = ['pearson', 'spearman', 'kendallTauB'] as const

/**
 * `docs`: levels.ts `documentCoefficients`, worked out once for the figure and its interval.
 * `shared`: the draws of the other correlation lines (levelDraws.ts); the same interval without.
 */
export function summaryLevelIntervals(
  docs: DocumentCoefficients,
  boot: LevelBootstrap,
  shared?: LevelDraws,
): LevelIntervals {
  const n = docs.pearson.length
  if (n === 0 || boot.replicates === 0) return NONE
  const kept = (shared?.fits(boot) ? shared : null)?.summary(n) ?? null
  const rand = kept ? null : mulberry32(boot.seed)
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
    if (kept)
      for (let t = r * n; t < (r + 1) * n; t++) {
        const d = kept[t]!
        a += p[d]!
        b += sp[d]!
        c += k[d]!
      }
    else
      for (let t = 0; t < n; t++) {
        const d = Math.floor(rand!() * n)
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
function cellsOf(rows: ScoredColumns) {
  // Documents and systems numbered in a canonical order (the documents' ids, the systems' names),
  // so the same rows in any order draw the same resamples.
  const docOf = documentNumbers(rows)
  const docs = docOf.count
  const sysOf = systemNumbers(rows)
  const systems = sysOf.count
  const n = rows.n
  // Each (document, system) cell's place, in the order the rows first reach it.
  const cellIndex = new Int32Array(docs * systems).fill(-1)
  const doc = new Int32Array(n)
  const sys = new Int32Array(n)
  const judge = new Float64Array(n)
  const human = new Float64Array(n)
  const count = new Int32Array(n)
  let cells = 0
  for (let i = 0; i < n; i++) {
    const d = docOf.of[i]!
    const s = sysOf.of[rows.sys[i]!]!
    const key = d * systems + s
    let c = cellIndex[key]!
    if (c < 0) {
      c = cells++
      cellIndex[key] = c
      doc[c] = d
      sys[c] = s
    }
    judge[c]! += rows.judge[i]!
    human[c]! += rows.human[i]!
    count[c]!++
  }
  return {
    docs,
    systems,
    cells,
    doc,
    sys,
    judge,
    human,
    count,
    byDoc: byDocument(doc, sys, cells, docs, systems),
  }
}

/**
 * The cells document by document, so a resample visits only the documents it drew (about a
 * third are not drawn). Null where that would change the order in which a system's cells are
 * added up (a system's cells not in the order of their documents), and with it the last digits.
 */
function byDocument(doc: Int32Array, sys: Int32Array, cells: number, docs: number, systems: number) {
  const last = new Int32Array(systems).fill(-1)
  for (let k = 0; k < cells; k++) {
    if (last[sys[k]!]! >= doc[k]!) return null
    last[sys[k]!] = doc[k]!
  }
  const start = new Int32Array(docs + 1)
  for (let k = 0; k < cells; k++) start[doc[k]! + 1]!++
  for (let d = 0; d < docs; d++) start[d + 1]! += start[d]!
  const fill = start.slice(0, docs)
  const cell = new Int32Array(cells)
  for (let k = 0; k < cells; k++) cell[fill[doc[k]!]!++] = k
  return { start, cell }
}

/**
 * The cells in the order a resample visits them (by document, or as numbered), read in a row.
 * Cells numbered in that order already (rows in document order) are taken as they are.
 */
function visitOrder(c: ReturnType<typeof cellsOf>): {
  sys: Int32Array
  judge: Float64Array
  human: Float64Array
  count: Int32Array
} {
  const order = c.byDoc?.cell ?? null
  let numbered = true
  for (let q = 0; order !== null && q < c.cells && numbered; q++) numbered = order[q] === q
  if (numbered) return c
  const at = (q: number) => (order ? order[q]! : q)
  const sys = new Int32Array(c.cells)
  const judge = new Float64Array(c.cells)
  const human = new Float64Array(c.cells)
  const count = new Int32Array(c.cells)
  for (let q = 0; q < c.cells; q++) {
    const k = at(q)
    sys[q] = c.sys[k]!
    judge[q] = c.judge[k]!
    human[q] = c.human[k]!
    count[q] = c.count[k]!
  }
  return { sys, judge, human, count }
}

/** `shared`: the draws and human sums of the other correlation lines (levelDraws.ts). */
export function systemLevelIntervals(
  rows: readonly ScoredResponse[],
  boot: LevelBootstrap,
  shared?: LevelDraws,
): LevelIntervals {
  return systemLevelIntervalsOf(scoredColumns(rows), boot, shared)
}

export function systemLevelIntervalsOf(
  rows: ScoredColumns,
  boot: LevelBootstrap,
  shared?: LevelDraws,
): LevelIntervals {
  const c = cellsOf(rows)
  if (c.systems < 2 || boot.replicates === 0) return NONE
  const R = boot.replicates
  const S = c.systems
  const own = shared?.fits(boot) ? shared : new LevelDraws(boot)
  const draws = own.system(c.docs, S)
  const { sys, judge, human, count } = visitOrder(c)
  const key: HumanKey = {
    docs: c.docs,
    systems: S,
    doc: c.doc.subarray(0, c.cells),
    sys: c.sys.subarray(0, c.cells),
    human: c.human.subarray(0, c.cells),
    count: c.count.subarray(0, c.cells),
  }
  // The human side's sums are those of an earlier line over the same cells, or made here.
  const kept = own.humanSums(key)
  const humans = kept ?? { h: new Float64Array(R * S), w: new Float64Array(R * S) }
  const { h, w } = humans
  const byDoc = c.byDoc
  const gridded = byDoc !== null && 2 * c.cells >= c.docs * S
  const grid = gridded ? cellGrid(c, sys, judge) : null
  const humanGrid = gridded && kept === null ? cellGrid(c, sys, human) : null
  const countGrid = gridded && kept === null ? cellGrid(c, sys, count) : null
  const j = new Float64Array(S)
  const dense = byDoc === null ? new Int32Array(c.docs) : null
  const draws3 = {
    pearson: new Float64Array(R),
    spearman: new Float64Array(R),
    kendallTauB: new Float64Array(R),
  }
  const drawn = { pearson: 0, spearman: 0, kendallTauB: 0 }
  const x = new Float64Array(S)
  const y = new Float64Array(S)
  const rx = new Float64Array(S)
  const ry = new Float64Array(S)
  const got: Coefficients = { pearson: null, spearman: null, kendallTauB: null }
  for (let r = 0; r < R; r++) {
    const d = draws.at(r)
    const base = r * S
    j.fill(0)
    // Each sum adds its cells in the order the previous single loop did (documents ascending, a
    // document's cells in turn), so its last digits are that loop's.
    if (grid !== null) {
      gridSums(grid, d, j, 0)
      if (humanGrid !== null && countGrid !== null) {
        gridSums(humanGrid, d, h, base)
        gridSums(countGrid, d, w, base)
      }
    } else if (byDoc !== null)
      for (let e = d.from; e < d.to; e++) {
        const m = d.times[e]!
        const doc = d.doc[e]!
        const from = byDoc.start[doc]!
        const to = byDoc.start[doc + 1]!
        for (let q = from; q < to; q++) j[sys[q]!]! += m * judge[q]!
        if (kept === null)
          for (let q = from; q < to; q++) {
            h[base + sys[q]!]! += m * human[q]!
            w[base + sys[q]!]! += m * count[q]!
          }
      }
    else {
      dense!.fill(0)
      for (let e = d.from; e < d.to; e++) dense![d.doc[e]!] = d.times[e]!
      for (let k = 0; k < c.cells; k++) {
        const m = dense![c.doc[k]!]!
        if (m === 0) continue
        j[sys[k]!]! += m * judge[k]!
        if (kept === null) {
          h[base + sys[k]!]! += m * human[k]!
          w[base + sys[k]!]! += m * count[k]!
        }
      }
    }
    // A system drawn twice is two points, as a pair drawn twice is in the pooled bootstrap; a
    // system with no response in the drawn documents has no mean and sits this resample out.
    let n = 0
    for (let s = 0; s < S; s++)
      for (let t = 0; t < d.sys[d.sysFrom + s]! && w[base + s]! > 0; t++) {
        x[n] = j[s]! / w[base + s]!
        y[n++] = h[base + s]! / w[base + s]!
      }
    coefficientsOf(x, y, n, rx, ry, got)
    for (const name of NAMES) {
      const v = got[name]
      if (v !== null) draws3[name][drawn[name]++] = v
    }
  }
  if (kept === null) own.keepHumanSums(key, humans)
  const level = boot.level ?? 0.95
  // A coefficient undefined in most resamples (systems whose means hardly differ) gets none.
  const ci = (name: (typeof NAMES)[number]) =>
    drawn[name] < R / 2 ? null : interval(draws3[name], drawn[name], level)
  return { pearson: ci('pearson'), spearman: ci('spearman'), kendallTauB: ci('kendallTauB') }
}

/**
 * One of the cells' sums (judge, human or count) on a grid, document by document, each
 * document's systems in a row padded to a multiple of four with zeros: a resample then adds four
 * systems' sums at once in locals instead of one cell at a time through the cell's system. For
 * grids mostly filled (every system over most documents, as item-level datasets are).
 */
interface CellGrid {
  systems: number
  stride: number
  cell: Float64Array
}

function cellGrid(c: ReturnType<typeof cellsOf>, sys: Int32Array, value: ArrayLike<number>): CellGrid {
  const stride = 4 * Math.ceil(c.systems / 4)
  const cell = new Float64Array(c.docs * stride)
  const byDoc = c.byDoc!
  for (let d = 0; d < c.docs; d++)
    for (let q = byDoc.start[d]!; q < byDoc.start[d + 1]!; q++) cell[d * stride + sys[q]!] = value[q]!
  return { systems: c.systems, stride, cell }
}

/**
 * Each system's sum over one resample's documents, ascending, into out[at + s]: the terms of the
 * cell by cell loop in the same order, with a +0 for each drawn document where a system has no
 * cell. A sum that starts at +0 never becomes −0 (round to nearest gives −0 only for −0 + −0),
 * and any other number plus +0 is itself, so those zeros change no digit.
 */
function gridSums(g: CellGrid, d: SystemResample, out: Float64Array, at: number): void {
  const { stride, cell, systems } = g
  for (let b = 0; b < stride; b += 4) {
    let a0 = 0
    let a1 = 0
    let a2 = 0
    let a3 = 0
    for (let e = d.from; e < d.to; e++) {
      const m = d.times[e]!
      const o = d.doc[e]! * stride + b
      a0 += m * cell[o]!
      a1 += m * cell[o + 1]!
      a2 += m * cell[o + 2]!
      a3 += m * cell[o + 3]!
    }
    // The padding's sums are zeros and have no place.
    out[at + b] = a0
    if (b + 1 < systems) out[at + b + 1] = a1
    if (b + 2 < systems) out[at + b + 2] = a2
    if (b + 3 < systems) out[at + b + 3] = a3
  }
}

/** correlation.ts's three coefficients of the first n points, without arrays where they are few. */
function coefficientsOf(
  x: Float64Array,
  y: Float64Array,
  n: number,
  rx: Float64Array,
  ry: Float64Array,
  out: Coefficients,
): Coefficients {
  if (n <= SHORT) return shortCoefficients(x, y, 0, n, rx, ry, out)
  const xs = Array.from(x.subarray(0, n))
  const ys = Array.from(y.subarray(0, n))
  out.pearson = pearson(xs, ys)
  out.spearman = spearman(xs, ys)
  out.kendallTauB = kendallTauB(xs, ys)
  return out
}
