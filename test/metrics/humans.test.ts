import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { candidateCells } from '../../src/main/metrics/clusterTally'
import { figuresByVariant } from '../../src/main/metrics/figures'
import { humanFigures } from '../../src/main/metrics/humans'
import { type TargetColumns, verdictCoder } from '../../src/main/metrics/load'
import { NONE } from '../../src/main/metrics/stats/binary'
import { buildLabelColumns, goldCodes, majorityAt } from '../../src/main/metrics/stats/labelColumns'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'

const TARGETS = 12
const VARIANTS = ['answer', 'poor_answer', 'ungrounded']
// 'odd' has no binary outcome: a label outside the schema (a schema edited after labelling).
const VALUES = ['true', 'false', 'not_clear', 'odd']
const boot = { seed: 1, replicates: 50 }

/** Targets with these labels, stored gold codes and variants; the default gold rule. */
function columns(rows: [number, number, string][], stored: number[], variant: number[]): TargetColumns {
  const indexOf = Int32Array.from({ length: TARGETS }, (_, i) => i)
  // Target order, a target's labels in the order given (a later one of the same annotator wins).
  const sorted = rows.map((r, k) => [r, k] as const).sort((x, y) => x[0][0] - y[0][0] || x[1] - y[1])
  const human = buildLabelColumns(
    TARGETS,
    sorted.map(([r]) => r),
    indexOf,
    VALUES,
  )
  return {
    schema: FAAF_SCHEMA,
    labels: [...FAAF_SCHEMA.values],
    variants: VARIANTS,
    indexOf,
    ids: Int32Array.from(indexOf),
    variant: Uint16Array.from(variant),
    candidate: Int32Array.from(indexOf),
    item: Int32Array.from(indexOf),
    human,
    labelPass: null,
    stored: Int32Array.from(stored),
    goldBin: new Int8Array(TARGETS),
    goldCode: new Int16Array(TARGETS),
    goldNum: new Float64Array(TARGETS),
    goldCount: 0,
    goldRule: null,
  }
}

/** The reference: per annotator, their column and the others' gold over every target, worked out afresh. */
function reference(t: TargetColumns) {
  const coder = verdictCoder(t.schema, t.labels)
  const h = t.human
  const bins = h.values.map((v) => coder.bin(v, null))
  const n = t.ids.length
  return h.annotatorIds.flatMap((a) => {
    const own = new Int8Array(n).fill(NONE)
    for (let i = 0; i < n; i++)
      for (let k = h.start[i]!; k < h.start[i + 1]!; k++) if (h.annotator[k] === a) own[i] = bins[h.code[k]!]!
    const others = goldCodes(h, t.stored, a)
    const gold = Int8Array.from(others, (c) => (c < 0 ? NONE : bins[c]!))
    const f = figuresByVariant(own, gold, null, t.variant, t.variants, boot)
    return f.overall.judged === 0 ? [] : [{ a, overall: f.overall, byVariant: f.byVariant }]
  })
}

describe('humans as judges', () => {
  it('give each annotator the figures of their labels against everyone else’s gold, stored gold winning', () => {
    fc.assert(
      fc.property(
        // Repeats of a (target, annotator) pair too: the later label is the annotator's.
        fc.array(fc.tuple(fc.nat(TARGETS - 1), fc.integer({ min: 1, max: 5 }), fc.constantFrom(...VALUES)), {
          maxLength: 60,
        }),
        fc.array(fc.integer({ min: -1, max: 3 }), { minLength: TARGETS, maxLength: TARGETS }),
        fc.array(fc.nat(VARIANTS.length - 1), { minLength: TARGETS, maxLength: TARGETS }),
        (rows, stored, variant) => {
          const t = columns(rows, stored, variant)
          const names = new Map(t.human.annotatorIds.map((a) => [a, `annotator ${a}`]))
          const got = humanFigures(
            t,
            verdictCoder(t.schema, t.labels),
            names,
            boot,
            candidateCells(t.candidate),
          )
          const want = reference(t)
          expect(got.map((h) => h.annotatorId).sort()).toEqual(want.map((w) => w.a).sort())
          for (const w of want) {
            const h = got.find((x) => x.annotatorId === w.a)!
            const { annotatorId, annotator, source, byVariant, ...overall } = h
            expect(overall).toEqual(w.overall)
            expect(byVariant).toEqual(w.byVariant)
          }
        },
      ),
      { seed: 11, numRuns: 300 },
    )
  })

  it('rest on the gold every label makes: stored gold, else the strict majority, a tie none', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(TARGETS - 1), fc.integer({ min: 1, max: 5 }), fc.constantFrom(...VALUES)), {
          maxLength: 60,
        }),
        fc.array(fc.integer({ min: -1, max: 3 }), { minLength: TARGETS, maxLength: TARGETS }),
        (rows, stored) => {
          const t = columns(rows, stored, new Array<number>(TARGETS).fill(0))
          const tally = new Int32Array(VALUES.length)
          const want = Int32Array.from({ length: TARGETS }, (_, i) =>
            t.stored[i]! >= 0 ? t.stored[i]! : majorityAt(t.human, i, -1, tally),
          )
          expect(goldCodes(t.human, t.stored)).toEqual(want)
        },
      ),
      { seed: 12, numRuns: 300 },
    )
  })
})

describe('humans as judges, read on the judges’ footing', () => {
  it('resample whole candidates for their intervals, as a judge’s are', () => {
    // 20 candidates of 5 facts, stored gold all supported; the person marks every fact of 4
    // candidates unsupported: ER 20/100, but the candidates drawn are 20, as for a judge that
    // misread 4 passages (clusterBootstrap.test.ts works this interval by hand: [0.05, ≥ 0.35]).
    const n = 100
    const indexOf = Int32Array.from({ length: n }, (_, i) => i)
    const rows: [number, number, string][] = Array.from({ length: n }, (_, i) => [
      i,
      1,
      i < 20 ? 'false' : 'true',
    ])
    const t: TargetColumns = {
      schema: FAAF_SCHEMA,
      labels: [...FAAF_SCHEMA.values],
      variants: ['answer'],
      indexOf,
      ids: Int32Array.from(indexOf),
      variant: new Uint16Array(n),
      candidate: Int32Array.from(indexOf, (i) => Math.floor(i / 5)),
      item: Int32Array.from(indexOf, (i) => Math.floor(i / 5)),
      human: buildLabelColumns(n, rows, indexOf, VALUES),
      labelPass: null,
      stored: new Int32Array(n).fill(VALUES.indexOf('true')),
      goldBin: new Int8Array(n),
      goldCode: new Int16Array(n),
      goldNum: new Float64Array(n),
      goldCount: 0,
      goldRule: null,
    }
    const names = new Map([[1, 'ana']])
    const [ana] = humanFigures(
      t,
      verdictCoder(t.schema, t.labels),
      names,
      { seed: 1 },
      candidateCells(t.candidate),
    )
    expect(ana!.errorRate).toBe(0.2)
    expect(ana!.errorRateCiMethod).toBe('bootstrap')
    expect(ana!.errorRateCi![0]).toBeCloseTo(0.05, 10)
    expect(ana!.errorRateCi![1]).toBeGreaterThanOrEqual(0.35)
  })
})
