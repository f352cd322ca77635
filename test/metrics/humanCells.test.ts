import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { candidateCells } from '../../src/main/metrics/clusterTally'
import { humanFigures } from '../../src/main/metrics/humans'
import { type TargetColumns, verdictCoder } from '../../src/main/metrics/load'
import { buildLabelColumns } from '../../src/main/metrics/stats/labelColumns'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'

const VARIANTS = ['answer', 'poor_answer', 'ungrounded']
// 'odd' has no binary outcome: a label outside the schema (a schema edited after labelling).
const VALUES = ['true', 'false', 'not_clear', 'odd']

/** A small deterministic generator, so one fast-check seed gives a whole workspace. */
function random(seed: number) {
  let x = seed >>> 0 || 1
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 2 ** 32
  }
}

/**
 * `m` candidates of 1…maxFacts targets (the first of `big` when asked, whose cells pass a byte),
 * each of one variant; 1…people annotators label each target 0–3 times (a later label of the same
 * person wins), some of it outside the schema, and two people agree on every target of the big
 * candidate; some targets carry stored gold.
 */
function workspace(seed: number, m: number, maxFacts: number, people: number, big: number): TargetColumns {
  const r = random(seed)
  const candidate: number[] = []
  const variant: number[] = []
  for (let c = 0; c < m; c++) {
    const facts = c === 0 && big > 0 ? big : 1 + Math.floor(r() * maxFacts)
    // Most candidates answer: its variant passes CLUSTER_NORMAL_ABOVE candidates first.
    const v = r() < 0.6 ? 0 : Math.floor(r() * VARIANTS.length)
    // Candidate ids as rows give them: not dense, not in target order everywhere.
    const id = 3 * c + (c % 2 === 0 ? 7 : 1)
    for (let f = 0; f < facts; f++) {
      candidate.push(id)
      variant.push(v)
    }
  }
  // A few targets move to another candidate's place: a candidate's targets need not be contiguous.
  for (let i = 1; i + 1 < candidate.length; i += 37)
    [candidate[i], candidate[i + 1]] = [candidate[i + 1]!, candidate[i]!]
  const n = candidate.length
  const indexOf = Int32Array.from({ length: n }, (_, i) => i)
  const rows: [number, number, string][] = []
  const lean = r() * 0.4
  for (let i = 0; i < n; i++) {
    // The big candidate's targets agreed on by two people: one cell of each past 255.
    if (big > 0 && i < big) {
      for (const a of [1, 2]) rows.push([i, a, 'false'])
      continue
    }
    const times = Math.floor(r() * 4)
    for (let k = 0; k < times; k++) {
      const value = r() < lean ? 'false' : VALUES[Math.floor(r() * VALUES.length)]!
      rows.push([i, 1 + Math.floor(r() * people), value])
    }
  }
  const stored = Int32Array.from({ length: n }, () => (r() < 0.1 ? Math.floor(r() * 3) : -1))
  return {
    schema: FAAF_SCHEMA,
    labels: [...FAAF_SCHEMA.values],
    variants: VARIANTS,
    indexOf,
    ids: Int32Array.from(indexOf),
    variant: Uint16Array.from(variant),
    candidate: Int32Array.from(candidate),
    item: Int32Array.from(candidate),
    human: buildLabelColumns(n, rows, indexOf, VALUES),
    labelPass: null,
    stored,
    goldBin: new Int8Array(n),
    goldCode: new Int16Array(n),
    goldNum: new Float64Array(n),
    goldCount: 0,
    goldRule: null,
  }
}

describe('people’s figures counted into their own cells per candidate', () => {
  it('are those of their labels grouped by candidate afterwards, intervals and all', () => {
    const methods = new Set<string | null>()
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        // Up to past CLUSTER_NORMAL_ABOVE candidates, where the closed form replaces the draws.
        fc.integer({ min: 1, max: 2600 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom(0, 0, 300),
        (seed, m, maxFacts, people, big) => {
          const t = workspace(seed, m, maxFacts, people, big)
          const coder = verdictCoder(t.schema, t.labels)
          const names = new Map(t.human.annotatorIds.map((a) => [a, `annotator ${a}`]))
          const boot = { seed, replicates: 50 }
          const clusters = candidateCells(t.candidate, false)
          const pairs = humanFigures(t, coder, names, boot, clusters, 0)
          // Cells placed by a dense index and by candidate id (its range three times the candidates).
          for (const byId of [false, true]) {
            const placed = candidateCells(t.candidate, byId)
            expect(humanFigures(t, coder, names, boot, placed, Number.POSITIVE_INFINITY)).toEqual(pairs)
            expect(humanFigures(t, coder, names, boot, placed, 0)).toEqual(pairs)
          }
          // The shared cells are left as they were found, for the next run or person.
          expect(clusters.cells.every((x) => x === 0)).toBe(true)
          for (const h of pairs)
            for (const f of [h, ...Object.values(h.byVariant)]) methods.add(f.errorRateCiMethod)
        },
      ),
      { seed: 34, numRuns: 40 },
    )
    // Both the bootstrap and the closed form were reached.
    expect(methods).toContain('bootstrap')
    expect(methods).toContain('cluster-robust')
  })

  it('fall back to the pairs where many people would each need cells for every candidate', () => {
    const t = workspace(5, 400, 6, 7, 0)
    const coder = verdictCoder(t.schema, t.labels)
    const names = new Map(t.human.annotatorIds.map((a) => [a, `annotator ${a}`]))
    const boot = { seed: 5, replicates: 100 }
    // The default budget (the pairs' own size) and a budget too small for any cells agree.
    expect(humanFigures(t, coder, names, boot, candidateCells(t.candidate))).toEqual(
      humanFigures(t, coder, names, boot, candidateCells(t.candidate), 0),
    )
  })
})
