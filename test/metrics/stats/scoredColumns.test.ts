import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LevelDraws } from '../../../src/main/metrics/stats/levelDraws'
import { systemLevelIntervalsOf } from '../../../src/main/metrics/stats/levelIntervals'
import {
  documentCoefficients,
  documentCoefficientsOf,
  type ScoredResponse,
  systemMeans,
  systemMeansOf,
} from '../../../src/main/metrics/stats/levels'
import { responseNumbers, type ScoredColumns } from '../../../src/main/metrics/stats/scoredColumns'
import * as oracle from '../oracle/levelIntervals'

/**
 * The item-level build numbers documents and systems once for the whole dataset and hands each
 * correlation line the responses both its sides scored as columns: ranks with gaps (documents
 * and systems the line does not hold), rows in any order. The levels must read exactly as they
 * do from the line's own rows.
 */

const score = fc.oneof(
  fc.integer({ min: 0, max: 3 }),
  fc.constantFrom(0, 0.5, 1, -0, 1 / 3),
  fc.double({ min: -1e3, max: 1e3, noNaN: true, noDefaultInfinity: true }),
)

const dataset = fc.array(
  fc.record({
    item: fc.integer({ min: -5, max: 30 }),
    variant: fc.constantFrom('b', 'A', 'a', 'Z', 'c d'),
    judge: score,
    human: score,
  }),
  { maxLength: 120 },
)

/** A line: the dataset's rows that `kept` keeps, as columns numbered over the whole dataset. */
function line(rows: readonly ScoredResponse[], kept: readonly boolean[]): [ScoredResponse[], ScoredColumns] {
  const numbers = responseNumbers(
    rows.map((r) => r.item),
    rows.map((r) => r.variant),
  )
  const at = rows.flatMap((_, i) => (kept[i % kept.length] ? [i] : []))
  const columns: ScoredColumns = {
    n: at.length,
    judge: Float64Array.from(at, (i) => rows[i]!.judge),
    human: Float64Array.from(at, (i) => rows[i]!.human),
    doc: Int32Array.from(at, (i) => numbers.doc[i]!),
    docs: numbers.docs,
    sys: Int32Array.from(at, (i) => numbers.sys[i]!),
    systemNames: numbers.systemNames,
  }
  return [at.map((i) => rows[i]!), columns]
}

describe('levels over columns numbered for the whole dataset', () => {
  it('give the figures of the line’s own rows, whatever the order and the gaps', () => {
    fc.assert(
      fc.property(
        dataset,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.constantFrom(1, 30),
        (rows, kept, seed, replicates) => {
          const [own, columns] = line(rows, kept)
          expect(documentCoefficientsOf(columns)).toStrictEqual(documentCoefficients(own))
          expect(systemMeansOf(columns)).toStrictEqual(systemMeans(own))
          const boot = { seed, replicates }
          expect(systemLevelIntervalsOf(columns, boot, new LevelDraws(boot))).toEqual(
            oracle.systemLevelIntervals(own, boot),
          )
        },
      ),
      { numRuns: 300 },
    )
  })

  it('group a document’s responses wherever they lie, in their own order', () => {
    // Documents out of id order and interleaved: document 7's responses first and last.
    const rows: ScoredResponse[] = [
      { item: 7, variant: 'b', judge: 0.1, human: 1 },
      { item: 2, variant: 'a', judge: 0.5, human: 0 },
      { item: 2, variant: 'b', judge: 0.9, human: 1 },
      { item: 7, variant: 'a', judge: 0.4, human: 0 },
      { item: 7, variant: 'c', judge: 0.2, human: 1 },
    ]
    const [, columns] = line(rows, [true])
    const docs = documentCoefficientsOf(columns)
    // Document 2 agrees perfectly; document 7's judge ranks its responses against the people.
    expect(docs.pearson).toHaveLength(2)
    expect(docs.pearson[0]).toBeCloseTo(1, 12)
    expect(docs.pearson[1]!).toBeLessThan(0)
    expect(systemMeansOf(columns).map((s) => s.variant)).toEqual(['b', 'a', 'c'])
  })
})
