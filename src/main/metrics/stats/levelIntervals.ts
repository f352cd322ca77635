import { type Interval, interval, mulberry32 } from './bootstrap'
import { kendallTauB, pearson, spearman } from './correlation'
import { type HumanKey, type LevelBootstrap, LevelDraws } from './levelDraws'
import { type DocumentCoefficients, documentNumbers, type ScoredResponse } from './levels'
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

/** The cells in the order a resample visits them (by document, or as numbered), read in a row. */
function visitOrder(c: ReturnType<typeof cellsOf>) {
  const order = c.byDoc?.cell ?? null
  const at = (q: number) => (order ? order[q]! : q)
  const sys = new Int32Array(c.cells)
  const judge = new Float64Array(c.cells)
  const human = new Float64Array(c.cells)
  const count = new Float64Array(c.cells)
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
  const j = new Float64Array(S)
  const byDoc = c.byDoc
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
    if (byDoc !== null)
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
