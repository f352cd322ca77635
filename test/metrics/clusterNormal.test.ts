import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { figuresOfCounts } from '../../src/main/metrics/figures'
import { mulberry32 } from '../../src/main/metrics/stats/bootstrap'
import { variantClustersOfPatterns } from '../../src/main/metrics/stats/candidateIntervals'
import {
  type ClusterPattern,
  clusterIntervals,
  patternsOf,
} from '../../src/main/metrics/stats/clusterBootstrap'
import { clusterNormalIntervals, ratioOfSumsInterval } from '../../src/main/metrics/stats/clusterNormal'
import { wilsonInterval } from '../../src/main/metrics/stats/wilson'
import { CLUSTER_NORMAL_ABOVE } from '../../src/shared/smallSample'

const Z = 1.959963984540054
const wrong = (p: ClusterPattern) => p.fp + p.fn
const size = (p: ClusterPattern) => p.tp + p.fp + p.fn + p.tn
const width = (iv: readonly [number, number] | null) => iv![1] - iv![0]

/** Figure counts of one variant from its patterns: judged, N/A, errors, then tp, fp, fn, tn. */
function countsOf(patterns: readonly ClusterPattern[]): Int32Array {
  const c = { tp: 0, fp: 0, fn: 0, tn: 0 }
  for (const p of patterns) {
    c.tp += p.count * p.tp
    c.fp += p.count * p.fp
    c.fn += p.count * p.fn
    c.tn += p.count * p.tn
  }
  return Int32Array.from([c.tp + c.fp + c.fn + c.tn, 0, 0, c.tp, c.fp, c.fn, c.tn])
}

/**
 * `m` candidates of 1…`maxFacts` facts, judged as a FaaF call would be: a call that misreads its
 * passage (`badCall`) gets most of its facts wrong, one that reads it well only a few, so errors
 * bunch by candidate as they do in the data the intervals are for.
 */
function randomPatterns(seed: number, m: number, maxFacts: number, badCall: number, unsupported: number) {
  const rand = mulberry32(seed)
  const cells = new Int32Array(m * 4)
  for (let c = 0; c < m; c++) {
    const facts = 1 + Math.floor(rand() * maxFacts)
    const pWrong = rand() < badCall ? 0.7 : 0.05
    for (let f = 0; f < facts; f++) {
      const goldUnsupported = rand() < unsupported
      const right = rand() >= pWrong
      // tp: both unsupported; fp: judge unsupported, gold supported; fn: the reverse; tn: both supported.
      const cell = goldUnsupported ? (right ? 0 : 2) : right ? 3 : 1
      cells[c * 4 + cell]!++
    }
  }
  return patternsOf(
    cells,
    Array.from({ length: m }, (_, c) => c),
  )
}

describe('the cluster-robust normal interval of a ratio of sums', () => {
  it('reduces to the ordinary interval on candidate means when every candidate is the same size', () => {
    // Four candidates of two facts with 0, 1, 2 and 1 wrong: candidate ERs 0, ½, 1, ½, mean ½,
    // sample variance s² = (¼ + 0 + ¼ + 0) / 3 = 1/6, so ½ ± z·√(s²/4) = ½ ± 1.96 × 0.2041 = [0.0999, 0.9001].
    const patterns = [
      { tp: 0, fp: 0, fn: 0, tn: 2, count: 1 },
      { tp: 0, fp: 1, fn: 0, tn: 1, count: 2 },
      { tp: 0, fp: 2, fn: 0, tn: 0, count: 1 },
    ]
    const iv = ratioOfSumsInterval(patterns, wrong, size)!
    expect(iv[0]).toBeCloseTo(0.5 - Z * Math.sqrt(1 / 24), 12)
    expect(iv[1]).toBeCloseTo(0.5 + Z * Math.sqrt(1 / 24), 12)
    expect(iv[0]).toBeCloseTo(0.0999, 4)
  })

  it('is wide where one giant candidate holds most of the facts', () => {
    // One call of 100 facts all wrong, 19 of one fact all right: ER = 100/119 = 0.840. The
    // residuals are 100 − 0.840·100 = 15.97 for the giant and −0.840 for each small one:
    // SE² = 20/19 · (15.97² + 19 · 0.840²) / 119² = 0.01996, SE = 0.141, half-width 0.277.
    const patterns = [
      { tp: 0, fp: 100, fn: 0, tn: 0, count: 1 },
      { tp: 0, fp: 0, fn: 0, tn: 1, count: 19 },
    ]
    const iv = ratioOfSumsInterval(patterns, wrong, size)!
    expect((iv[0] + iv[1]) / 2).toBeCloseTo(100 / 119, 12)
    expect(width(iv) / 2).toBeCloseTo(0.277, 3)
    // Counted as 119 independent facts, Wilson's is a fifth of that.
    expect(width(wilsonInterval(100, 119))).toBeLessThan(0.14)
  })

  it('gives F1 on unsupported as the ratio 2·tp / (2·tp + fp + fn) over candidates', () => {
    // Two candidates: (tp 2, fp 0, fn 0) and (tp 0, fp 1, fn 1): F1 = 4 / 6. Residuals 4 − ⅔·4 =
    // 4/3 and 0 − ⅔·2 = −4/3, SE² = 2 · (32/9) / 36, SE = 0.4444.
    const { f1 } = clusterNormalIntervals([
      { tp: 2, fp: 0, fn: 0, tn: 0, count: 1 },
      { tp: 0, fp: 1, fn: 1, tn: 0, count: 1 },
    ])
    expect(f1![0]).toBeCloseTo(2 / 3 - Z * (4 / 9), 12)
    expect(f1![1]).toBeCloseTo(2 / 3 + Z * (4 / 9), 12)
  })

  it('has no interval over fewer than two candidates or nothing counted', () => {
    expect(ratioOfSumsInterval([{ tp: 0, fp: 3, fn: 0, tn: 2, count: 1 }], wrong, size)).toBeNull()
    expect(clusterNormalIntervals([{ tp: 0, fp: 0, fn: 0, tn: 4, count: 5 }]).f1).toBeNull()
  })

  it(`agrees with the cluster bootstrap within 0.01 at each end from ${2 * CLUSTER_NORMAL_ABOVE} candidates on`, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 2 * CLUSTER_NORMAL_ABOVE, max: 6000 }),
        fc.integer({ min: 1, max: 15 }),
        fc.double({ min: 0.02, max: 0.5, noNaN: true }),
        fc.double({ min: 0.05, max: 0.6, noNaN: true }),
        (seed, m, maxFacts, badCall, unsupported) => {
          const patterns = randomPatterns(seed, m, maxFacts, badCall, unsupported)
          const normal = clusterNormalIntervals(patterns)
          const boot = clusterIntervals(patterns, { seed })
          for (const k of ['errorRate', 'f1'] as const) {
            expect(Math.abs(normal[k]![0] - boot[k]![0])).toBeLessThan(0.01)
            expect(Math.abs(normal[k]![1] - boot[k]![1])).toBeLessThan(0.01)
          }
        },
      ),
      { numRuns: 25 },
    )
  })
})

describe('which interval over candidates ER and F1 get', () => {
  const boot = { seed: 7 }

  it(`is the cluster-robust one above ${CLUSTER_NORMAL_ABOVE} candidates, and says so`, () => {
    const patterns = randomPatterns(11, CLUSTER_NORMAL_ABOVE + 1, 10, 0.2, 0.3)
    const f = figuresOfCounts(
      countsOf(patterns),
      ['answer'],
      boot,
      variantClustersOfPatterns([patterns]),
    ).overall
    expect(f.errorRateCiMethod).toBe('cluster-robust')
    expect(f.f1CiMethod).toBe('cluster-robust')
    expect(f.errorRateCi).toEqual(clusterNormalIntervals(patterns).errorRate)
    // Calls that misread their passage bunch the errors: wider than Wilson's over the facts.
    expect(width(f.errorRateCi)).toBeGreaterThan(
      width(wilsonInterval(countsOf(patterns)[4]!, countsOf(patterns)[0]!)),
    )
  })

  it(`keeps the cluster bootstrap at ${CLUSTER_NORMAL_ABOVE} candidates and fewer`, () => {
    const patterns = randomPatterns(11, CLUSTER_NORMAL_ABOVE, 10, 0.2, 0.3)
    const f = figuresOfCounts(
      countsOf(patterns),
      ['answer'],
      boot,
      variantClustersOfPatterns([patterns]),
    ).overall
    expect(f.errorRateCiMethod).toBe('bootstrap')
    expect(f.errorRateCi).toEqual(clusterIntervals(patterns, boot).errorRate)
  })

  it('draws the bootstrap after all where the normal interval would reach below 0', () => {
    // 2,000 candidates, the only errors all 30 facts of one call: ER 30 / 2,029 = 1.5%, and the
    // normal interval's half-width (about 2.9%) reaches below 0.
    const patterns = [
      { tp: 0, fp: 30, fn: 0, tn: 0, count: 1 },
      { tp: 0, fp: 0, fn: 0, tn: 1, count: 1999 },
    ]
    expect(clusterNormalIntervals(patterns).errorRate![0]).toBeLessThan(0)
    const f = figuresOfCounts(
      countsOf(patterns),
      ['answer'],
      boot,
      variantClustersOfPatterns([patterns]),
    ).overall
    expect(f.errorRateCiMethod).not.toBe('cluster-robust')
    expect(f.errorRateCi![0]).toBeGreaterThan(0)
  })

  it('keeps the wider of it and Wilson’s: Wilson’s where the errors do not bunch', () => {
    // 1,500 candidates of 4 facts; each wrong fact the only one of its candidate. Spread out
    // like this the candidate interval is a little narrower than Wilson's over the 6,000 facts.
    const patterns = [
      { tp: 0, fp: 1, fn: 0, tn: 3, count: 600 },
      { tp: 0, fp: 0, fn: 0, tn: 4, count: 900 },
    ]
    const f = figuresOfCounts(
      countsOf(patterns),
      ['answer'],
      boot,
      variantClustersOfPatterns([patterns]),
    ).overall
    expect(width(clusterNormalIntervals(patterns).errorRate)).toBeLessThan(width(wilsonInterval(600, 6000)))
    expect(f.errorRateCiMethod).toBe('wilson')
    expect(f.errorRateCi).toEqual(wilsonInterval(600, 6000))
  })
})
