import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LabelWriter } from '../../src/main/labels/labels'
import { buildItemLevel } from '../../src/main/metrics/items/build'
import { itemCorrelation, Resamples } from '../../src/main/metrics/items/correlate'
import { loadItemInputs } from '../../src/main/metrics/items/load'
import { type ItemScoreKind, itemScores, type UnitVerdict } from '../../src/main/metrics/items/scores'
import type { ItemLevelInput } from '../../src/main/metrics/items/seriesScores'
import { datasetSnapshot } from '../../src/main/metrics/snapshot'
import { mulberry32 } from '../../src/main/metrics/stats/bootstrap'
import { type Db, openWorkspace } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { ContentWriter } from '../../src/main/store/repos/content'
import { createDataset } from '../../src/main/store/repos/datasets'
import {
  DCR_SCHEMA,
  FAAF_SCHEMA,
  holisticSchema,
  type LabelSchema,
  numericSchema,
  REFCHECKER_SCHEMA,
  UNIT_KINDS,
  type UnitKind,
} from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { buildItemLevel as oracleBuild } from './oracle/build'
import { itemCorrelation as oracleCorrelation } from './oracle/correlate'
import { itemScores as oracleScores } from './oracle/scores'

/**
 * The columnar item-level code must give the figures of the code it replaced (test/metrics/oracle)
 * to the last digit: same scores, same coefficients, same bootstrap draws, same intervals.
 * Random data with ties, gaps, N/A and errors, on every label schema and unit kind.
 */
const dir = tmpDirs()

describe('item-level figures against the pair-by-pair oracle', () => {
  const share = fc.integer({ min: 0, max: 6 }).map((k) => k / 6)
  const free = fc.oneof(
    fc.double({ min: -50, max: 50, noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, -0, 0.1, 1 / 3),
  )
  const lists = (v: fc.Arbitrary<number>) => fc.array(fc.tuple(v, v), { minLength: 0, maxLength: 70 })

  it('itemCorrelation: the same coefficients and intervals, with or without shared resamples', () => {
    fc.assert(
      fc.property(
        fc.oneof(lists(share), lists(free), fc.array(fc.tuple(share, free), { maxLength: 300 })),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.integer({ min: 0, max: 120 }),
        (ps, seed, replicates) => {
          const x = ps.map((p) => p[0])
          const y = ps.map((p) => p[1])
          const boot = { seed, replicates }
          const want = oracleCorrelation(x, y, boot)
          expect(itemCorrelation(x, y, boot)).toStrictEqual(want)
          const shared = new Resamples(boot)
          // Drawn once for this n by another line, then reused.
          itemCorrelation(y, x, boot, shared)
          expect(itemCorrelation(x, y, boot, shared)).toStrictEqual(want)
          // Too many to keep: drawn afresh per line.
          expect(itemCorrelation(x, y, boot, new Resamples(boot, 0))).toStrictEqual(want)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('the written-out generator is the shared mulberry32 stream', () => {
    // Two pairs, one resample per replicate: each draw picks pair floor(u · 2), so the intervals
    // of the oracle (which calls mulberry32) and of the copy agree only if the streams do.
    const rand = mulberry32(99)
    const us = Array.from({ length: 8 }, () => rand())
    expect(us.every((u) => u >= 0 && u < 1)).toBe(true)
    const x = [0, 0.5, 1, 1, 0.25]
    const y = [0.2, 0.4, 1, 0.9, 0.1]
    expect(itemCorrelation(x, y, { seed: 99, replicates: 400 })).toStrictEqual(
      oracleCorrelation(x, y, { seed: 99, replicates: 400 }),
    )
  })

  const KINDS: ItemScoreKind[] = ['share-supported', 'entailment-share', 'verdict', 'dcr']
  const rows = fc.array(
    fc.record({
      response: fc.integer({ min: 1, max: 6 }),
      bin: fc.constantFrom(-1, 0, 1),
      num: fc.oneof(
        fc.constant(Number.NaN),
        fc.integer({ min: -3, max: 5 }),
        fc.double({ min: -5, max: 5, noNaN: true }),
      ),
      verdict: fc.constantFrom(null, '', 'entailment', 'neutral', 'contradiction', 'other'),
    }),
    { maxLength: 40 },
  )

  it('itemScores: every score kind, as the oracle', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...KINDS),
        rows,
        fc.integer({ min: -2, max: 2 }),
        fc.integer({ min: 0, max: 3 }),
        (kind, rs: UnitVerdict[], alpha, beta) => {
          const got = itemScores(kind, rs, { alpha, beta })
          const want = oracleScores(kind, rs, { alpha, beta })
          expect(new Map([...got].sort((a, b) => a[0] - b[0]))).toStrictEqual(
            new Map([...want].sort((a, b) => a[0] - b[0])),
          )
        },
      ),
      { numRuns: 300 },
    )
  })

  const SCHEMAS: LabelSchema[] = [
    FAAF_SCHEMA,
    REFCHECKER_SCHEMA,
    DCR_SCHEMA,
    holisticSchema(),
    numericSchema('likert', 1, 5, 3),
  ]
  const workspace = fc.record({
    schema: fc.constantFrom(...SCHEMAS),
    kinds: fc.subarray([...UNIT_KINDS], { minLength: 1 }),
    items: fc.integer({ min: 1, max: 5 }),
    variants: fc.subarray(['a', 'b', 'c'], { minLength: 1 }),
    units: fc.integer({ min: 1, max: 4 }),
    annotators: fc.integer({ min: 0, max: 3 }),
    methods: fc.array(fc.constantFrom('faaf-tf', 'dcr', 'lexical', 'refchecker'), { maxLength: 4 }),
    // one draw per (annotator or run, target): 0 none, 1 N/A, 2 error, else a value
    marks: fc.array(fc.nat({ max: 9 }), { minLength: 600, maxLength: 600 }),
    seed: fc.integer({ min: 0, max: 1000 }),
    alpha: fc.integer({ min: -1, max: 1 }),
    beta: fc.integer({ min: 0, max: 2 }),
  })

  let shared: Db | undefined
  let datasets = 0
  it('buildItemLevel over a random workspace: every series and correlation as the oracle', () => {
    fc.assert(
      fc.property(workspace, (w) => {
        // One workspace for every run (a dataset each): opening one costs more than the check.
        shared ??= openWorkspace(`${dir()}/w.factlab`, { skipQuickCheck: true })
        const db = shared
        const ds = createDataset(db, { name: `d${++datasets}`, labelSchema: w.schema })
        db.transaction(() => {
          const content = new ContentWriter(db)
          for (let i = 0; i < w.items; i++) {
            const item = content.insertItem(
              ds.id,
              { extId: `q${i}`, question: 'q', reference: `the ref ${i}` },
              i,
            )
            const candidates = w.variants.map((v) =>
              content.insertCandidate(item, { variant: v, text: `the ${v} text ${i}` }),
            )
            for (let u = 0; u < w.units; u++) {
              const kind = w.kinds[(i + u) % w.kinds.length] as UnitKind
              // Facts belong to the item; sentences, triplets and whole units to one response.
              if (kind === 'fact') content.insertUnit(item, { kind, text: `u${u}` })
              else
                for (const candidateId of candidates)
                  content.insertUnit(item, { kind, candidateId, text: `u${u}` })
            }
          }
          const targets = db
            .prepare('SELECT id FROM targets WHERE dataset_id = ? ORDER BY id')
            .pluck()
            .all(ds.id) as number[]
          const values = w.schema.type === 'numeric' ? ['1', '2', '3', '4', '5'] : w.schema.values
          let m = 0
          const mark = () => w.marks[m++ % w.marks.length]!
          const labels = new LabelWriter(db)
          for (let a = 0; a < w.annotators; a++) {
            const annotatorId = ensureAnnotator(db, `ann${a}`).id
            for (const t of targets) {
              const k = mark()
              if (k >= 3) labels.save({ targetId: t, annotatorId, verdict: values[k % values.length]! })
            }
          }
          const insRun = db.prepare(
            `INSERT INTO runs (kind, dataset_id, provider, model, method, status, created_at)
             VALUES ('imported', ?, 'imported', ?, ?, 'done', '2026-01-01')`,
          )
          const insVerdict = db.prepare(
            'INSERT INTO verdicts (run_id, target_id, status, verdict, score) VALUES (?, ?, ?, ?, ?)',
          )
          w.methods.forEach((method, r) => {
            const runId = Number(insRun.run(ds.id, `m${r}`, method).lastInsertRowid)
            for (const t of targets) {
              const k = mark()
              if (k === 0) continue
              const status = k === 1 ? 'na' : k === 2 ? 'error' : 'ok'
              const v = values[k % values.length]!
              insVerdict.run(
                runId,
                t,
                status,
                status === 'ok' ? v : null,
                status === 'ok' && w.schema.type === 'numeric' ? Number(v) : null,
              )
            }
          })
        })()
        {
          const s = datasetSnapshot(db, ds.id)
          const input: ItemLevelInput = {
            t: s.t,
            coder: s.coder,
            runs: s.runs,
            columns: s.columns,
            inputs: loadItemInputs(
              db,
              ds.id,
              s.t,
              s.runs.map((r) => r.id),
            ),
            names: new Map(),
            alpha: w.alpha,
            beta: w.beta,
            boot: { seed: w.seed, replicates: 40 },
          }
          expect(buildItemLevel(input)).toStrictEqual(oracleBuild(input))
        }
      }),
      { numRuns: 40 },
    )
    shared?.close()
  })
})
