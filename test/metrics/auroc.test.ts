import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { aurocCut, correlate } from '../../src/main/metrics/stats/correlation'
import { toJsonReport, toMarkdown } from '../../src/main/reports'
import {
  type CategoricalLabelSchema,
  FAAF_SCHEMA,
  holisticSchema,
  type NumericLabelSchema,
} from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

const oneToFive: NumericLabelSchema = {
  type: 'numeric',
  name: 'summeval',
  min: 1,
  max: 5,
  step: 1,
  threshold: 3,
}

describe('where numeric human labels are split for AUROC', () => {
  it("uses a numeric schema's pass threshold", () => {
    expect(aurocCut(oneToFive)).toEqual({ threshold: 3, source: 'schema' })
  })

  it('falls back to the middle of the range when the threshold cannot split the labels', () => {
    // Every 0–5 label is ≥ 0, so a threshold of 0 would leave one class empty.
    expect(aurocCut({ ...oneToFive, min: 0, max: 5, threshold: 0 })).toEqual({
      threshold: 2.5,
      source: 'midpoint',
    })
    expect(aurocCut({ ...oneToFive, threshold: 6 })).toEqual({ threshold: 3, source: 'midpoint' })
  })

  it("follows where the dataset puts holistic's partially_pass", () => {
    expect(aurocCut(holisticSchema('unsupported'))).toEqual({ threshold: 2, source: 'schema' })
    expect(aurocCut(holisticSchema('supported'))).toEqual({ threshold: 1, source: 'schema' })
  })

  it('uses the midpoint when the binary mapping does not order the scores', () => {
    const odd: CategoricalLabelSchema = {
      type: 'categorical',
      name: 'odd',
      values: ['a', 'b', 'c'],
      binary: { a: 'supported', b: 'unsupported', c: 'supported' },
      scores: { a: 0, b: 1, c: 4 },
    }
    expect(aurocCut(odd)).toEqual({ threshold: 2, source: 'midpoint' })
  })

  it('has no cut for plain categories', () => {
    expect(aurocCut(FAAF_SCHEMA)).toBeNull()
  })
})

describe('AUROC against numeric human labels', () => {
  it('matches a count done by hand', () => {
    // Human ≥ 3 are positive: judge scores 0.35, 0.8, 0.2 against negatives 0.1, 0.4.
    // Positive above negative: 0.35>0.1, 0.8>0.1, 0.8>0.4, 0.2>0.1 → 4 of 6 pairs.
    const c = correlate([0.1, 0.4, 0.35, 0.8, 0.2], [1, 2, 3, 4, 5], { threshold: 3, source: 'schema' })
    expect(c.auroc).toBeCloseTo(4 / 6, 12)
    expect(c.aurocCut).toEqual({ threshold: 3, source: 'schema' })
  })

  it('counts a tie between a positive and a negative as half', () => {
    // Positives 0.5, 0.9; negatives 0.5, 0.1: 0.5=0.5 (½), 0.5>0.1, 0.9>0.5, 0.9>0.1 → 3.5 of 4.
    const c = correlate([0.5, 0.9, 0.5, 0.1], [4, 5, 2, 1], { threshold: 3, source: 'schema' })
    expect(c.auroc).toBeCloseTo(3.5 / 4, 12)
  })

  it('is "not defined" (null, never NaN) when every label falls on one side', () => {
    const all = correlate([0.2, 0.7, 0.9], [3, 4, 5], { threshold: 3, source: 'schema' })
    expect(all.auroc).toBeNull()
    expect(all.aurocCut).toEqual({ threshold: 3, source: 'schema' })
    // 0/1 labels on a 1–5 scale are low scores, not binary gold.
    expect(correlate([0.2, 0.7, 0.9], [0, 1, 1], { threshold: 3, source: 'schema' }).auroc).toBeNull()
  })

  it('agrees with counting every positive/negative pair', () => {
    const pair = fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 5 }))
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 40 }), (rows) => {
        const judge = rows.map(([j]) => j / 4)
        const human = rows.map(([, h]) => h)
        const got = correlate(judge, human, { threshold: 3, source: 'schema' }).auroc
        let wins = 0
        let pairs = 0
        for (let p = 0; p < rows.length; p++)
          for (let q = 0; q < rows.length; q++)
            if (human[p]! >= 3 && human[q]! < 3) {
              pairs++
              wins += judge[p]! > judge[q]! ? 1 : judge[p] === judge[q] ? 0.5 : 0
            }
        if (pairs === 0) expect(got).toBeNull()
        else expect(got).toBeCloseTo(wins / pairs, 9)
      }),
    )
  })
})

describe('numeric datasets in the metrics and the report', () => {
  function numericDataset(humans: string[], scores: number[]) {
    const fx = makeFixture(tmp(), { items: humans.length, variants: ['s'], facts: 1, schema: oneToFive })
    fx.labelAll('ana', humans)
    fx.run('scorer', humans, { scores })
    return computeDatasetMetrics(fx.db, fx.datasetId)
  }

  it('reports AUROC and the threshold it used', () => {
    const m = numericDataset(['1', '2', '3', '4', '5'], [0.1, 0.4, 0.35, 0.8, 0.2])
    const row = m.correlations.find((c) => c.level === 'target')!
    expect(row).toMatchObject({ against: 'numeric', n: 5, aurocCut: { threshold: 3, source: 'schema' } })
    expect(row.auroc).toBeCloseTo(4 / 6, 12)
    // Five targets: given, but marked as too few to read.
    expect(toMarkdown(m)).toContain('| 0.667 · too few targets (n=5) | human ≥ 3 (schema pass threshold) |')
    expect(toJsonReport(m).correlations[0]!.auroc_cut).toEqual({ threshold: 3, source: 'schema' })
  })

  it('says "not defined" when the humans gave only passing scores', () => {
    const m = numericDataset(['3', '4', '5', '4'], [0.2, 0.7, 0.9, 0.5])
    expect(m.correlations[0]!.auroc).toBeNull()
    const md = toMarkdown(m)
    expect(md).toContain('| not defined · too few targets (n=4) | human ≥ 3 (schema pass threshold) |')
    expect(md).not.toMatch(/NaN/)
  })
})
