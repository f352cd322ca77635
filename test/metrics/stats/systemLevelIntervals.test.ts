import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { interval, mulberry32 } from '../../../src/main/metrics/stats/bootstrap'
import { kendallTauB, pearson, spearman } from '../../../src/main/metrics/stats/correlation'
import {
  type LevelBootstrap,
  type LevelIntervals,
  systemLevelIntervals,
} from '../../../src/main/metrics/stats/levelIntervals'
import type { ScoredResponse } from '../../../src/main/metrics/stats/levels'

/**
 * The system level's interval resamples documents and systems over cells now kept in typed
 * arrays and visited document by document; the interval a person reads must not move by a digit.
 */

const NONE: LevelIntervals = { pearson: null, spearman: null, kendallTauB: null }
const NAMES = ['pearson', 'spearman', 'kendallTauB'] as const

/** How often each of n units was drawn in one resample of n. */
function draw(rand: () => number, counts: Int32Array): Int32Array {
  const n = counts.length
  counts.fill(0)
  for (let k = 0; k < n; k++) counts[Math.floor(rand() * n)]!++
  return counts
}
/** The previous code, as it was. Each (document, system) cell's sums, so a resample weighs cells instead of rereading rows. */
function cellsOf(rows: readonly ScoredResponse[]) {
  // Documents and systems numbered in a canonical order, so the same rows in any order draw the
  // same resamples.
  const docIndex = new Map([...new Set(rows.map((r) => r.item))].sort((a, b) => a - b).map((d, i) => [d, i]))
  const sysIndex = new Map(
    [...new Set(rows.map((r) => r.variant))]
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((s, i) => [s, i]),
  )
  const cellIndex = new Map<number, number>()
  const doc: number[] = []
  const sys: number[] = []
  const judge: number[] = []
  const human: number[] = []
  const count: number[] = []
  for (const r of rows) {
    const d = docIndex.get(r.item)!
    const s = sysIndex.get(r.variant)!
    const key = d * sysIndex.size + s
    let c = cellIndex.get(key)
    if (c === undefined) {
      c = doc.length
      cellIndex.set(key, c)
      doc.push(d)
      sys.push(s)
      judge.push(0)
      human.push(0)
      count.push(0)
    }
    judge[c]! += r.judge
    human[c]! += r.human
    count[c]!++
  }
  return { docs: docIndex.size, systems: sysIndex.size, doc, sys, judge, human, count }
}

function oracleSystemLevel(rows: readonly ScoredResponse[], boot: LevelBootstrap): LevelIntervals {
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
  for (let r = 0; r < boot.replicates; r++) {
    draw(rand, docCounts)
    draw(rand, sysCounts)
    j.fill(0)
    h.fill(0)
    w.fill(0)
    for (let k = 0; k < c.doc.length; k++) {
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

const score = fc.oneof(
  fc.integer({ min: 0, max: 3 }),
  fc.double({ min: -100, max: 100, noNaN: true }),
  fc.constantFrom(1e16, -1e16, 0.1),
)

describe('the system level interval', () => {
  it('is that of the previous code to the last digit, on random rows in any order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }).chain((docs) =>
          fc.array(
            fc.record({
              item: fc.integer({ min: 0, max: docs }),
              variant: fc.constantFrom('A', 'B', 'C', 'D'),
              judge: score,
              human: score,
            }),
            { maxLength: 150 },
          ),
        ),
        fc.boolean(),
        fc.integer({ min: 1, max: 1000 }),
        (rows, byItem, seed) => {
          // Rows in document order (the usual case) as well as in any order.
          const r = byItem ? [...rows].sort((a, b) => a.item - b.item) : rows
          const boot = { seed, replicates: 50 }
          expect(systemLevelIntervals(r, boot)).toEqual(oracleSystemLevel(r, boot))
        },
      ),
      { numRuns: 300 },
    )
  })
})
