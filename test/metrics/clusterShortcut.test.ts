import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clustersOfLabels } from '../../src/main/metrics/clusterTally'
import { FIGURE_SLOTS, FIRST_CELL, figuresOfCounts, JUDGED } from '../../src/main/metrics/figures'
import { mulberry32 } from '../../src/main/metrics/stats/bootstrap'
import { variantClustersOfPatterns } from '../../src/main/metrics/stats/candidateIntervals'
import { type ClusterPattern, patternsOf } from '../../src/main/metrics/stats/clusterBootstrap'
import { ratioOfSumsInterval } from '../../src/main/metrics/stats/clusterNormal'
import { zFor } from '../../src/main/metrics/stats/fisher'
import { CLUSTER_NORMAL_ABOVE } from '../../src/shared/smallSample'

/**
 * Above CLUSTER_NORMAL_ABOVE candidates the Compare view no longer groups a run's or a person's
 * candidates into patterns unless the bootstrap will be drawn: the closed form is taken from sums
 * over the candidates. The figures a person reads must be those of the grouped path.
 */

const VARIANTS = ['short', 'long']

/**
 * Labels of `m` candidates of 1…`maxFacts` facts over two variants, judged as a FaaF call is (a
 * call that misreads its passage gets most facts wrong); `rare` makes errors so rare that the
 * normal interval reaches below 0 and the bootstrap is drawn after all; a tiny `unsupported`
 * does the same to F1's alone.
 */
function labels(
  seed: number,
  m: number,
  maxFacts: number,
  badCall: number,
  rare: boolean,
  unsupported = 0.3,
) {
  const rand = mulberry32(seed)
  const candidate: number[] = []
  const cell: number[] = []
  for (let c = 0; c < m; c++) {
    const facts = 1 + Math.floor(rand() * maxFacts)
    const pWrong = rare ? (rand() < 0.002 ? 0.9 : 0) : rand() < badCall ? 0.7 : 0.05
    for (let f = 0; f < facts; f++) {
      const goldUnsupported = rand() < unsupported
      const right = rand() >= pWrong
      candidate.push(c)
      cell.push(goldUnsupported ? (right ? 0 : 2) : right ? 3 : 1)
    }
  }
  // Targets in a shuffled order, as labels come, with each candidate in one variant.
  const order = candidate.map((_, i) => i).sort(() => rand() - 0.5)
  const of = Int32Array.from(order, (i) => candidate[i]!)
  const variant = Uint16Array.from(order, (i) => candidate[i]! % 2)
  const judged = order.flatMap((i, t) => [t, cell[i]!])
  const counts = new Int32Array(VARIANTS.length * FIGURE_SLOTS)
  for (let p = 0; p < judged.length; p += 2) {
    const o = variant[judged[p]!]! * FIGURE_SLOTS
    counts[o + JUDGED]!++
    counts[o + FIRST_CELL + judged[p + 1]!]!++
  }
  return { clusters: { of, count: m }, variant, judged, counts }
}

/** Every candidate grouped into patterns per variant, as before the shortcut. */
function grouped(l: ReturnType<typeof labels>): ClusterPattern[][] {
  const cells = new Int32Array(l.clusters.count * 4)
  const touched: number[][] = VARIANTS.map(() => [])
  for (let p = 0; p < l.judged.length; p += 2) {
    const c = l.clusters.of[l.judged[p]!]!
    if (cells[c * 4]! + cells[c * 4 + 1]! + cells[c * 4 + 2]! + cells[c * 4 + 3]! === 0)
      touched[l.variant[l.judged[p]!]!]!.push(c)
    cells[c * 4 + l.judged[p + 1]!]!++
  }
  return touched.map((cs) => patternsOf(cells, cs))
}

/** The interval's previous code: Σ(a − R·b)² summed over the patterns in floating point. */
function twoPass(patterns: readonly ClusterPattern[], a: (p: ClusterPattern) => number, b: typeof a) {
  let m = 0
  let sumA = 0
  let sumB = 0
  for (const p of patterns) {
    m += p.count
    sumA += p.count * a(p)
    sumB += p.count * b(p)
  }
  const r = sumA / sumB
  let squares = 0
  for (const p of patterns) {
    const e = a(p) - r * b(p)
    squares += p.count * e * e
  }
  const half = (zFor(0.95) * Math.sqrt((m / (m - 1)) * squares)) / sumB
  return [r - half, r + half]
}

describe('the Compare view’s intervals over candidates without grouping them', () => {
  it(`are the figures of the grouped path, on random labels above ${CLUSTER_NORMAL_ABOVE} candidates`, () => {
    let skipped = 0
    let drawn = 0
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 2 * CLUSTER_NORMAL_ABOVE + 2, max: 5000 }),
        fc.integer({ min: 1, max: 12 }),
        fc.double({ min: 0.02, max: 0.5, noNaN: true }),
        fc.boolean(),
        fc.constantFrom(0.3, 0.001),
        (seed, m, maxFacts, badCall, rare, unsupported) => {
          const l = labels(seed, m, maxFacts, badCall, rare, unsupported)
          const boot = { seed, replicates: 200 }
          const scratch = new Int32Array(m * 4)
          const shortcut = clustersOfLabels(
            l.judged,
            l.variant,
            { ...l.clusters, base: 0, cells: scratch },
            VARIANTS.length,
            boot,
          )
          expect(scratch.every((x) => x === 0)).toBe(true)
          for (const v of shortcut.byVariant) v.patterns === null ? skipped++ : drawn++
          const before = figuresOfCounts(l.counts, VARIANTS, boot, variantClustersOfPatterns(grouped(l)))
          expect(figuresOfCounts(l.counts, VARIANTS, boot, shortcut)).toEqual(before)
        },
      ),
      { numRuns: 40 },
    )
    // Both ways were exercised: variants whose grouping was skipped, and ones that drew the bootstrap.
    expect(skipped).toBeGreaterThan(0)
    expect(drawn).toBeGreaterThan(0)
  })

  it('give the closed form the previous code gave, but for the last binary digits of its sum of squares', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 2, max: 5000 }),
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0.02, max: 0.5, noNaN: true }),
        (seed, m, maxFacts, badCall) => {
          const patterns = grouped(labels(seed, m, maxFacts, badCall, false)).flat()
          const wrong = (p: ClusterPattern) => p.fp + p.fn
          const size = (p: ClusterPattern) => p.tp + p.fp + p.fn + p.tn
          const now = ratioOfSumsInterval(patterns, wrong, size)!
          const then = twoPass(patterns, wrong, size)
          for (const k of [0, 1]) expect(Math.abs(now[k]! - then[k]!)).toBeLessThan(1e-14)
        },
      ),
      { numRuns: 40 },
    )
  })
})
