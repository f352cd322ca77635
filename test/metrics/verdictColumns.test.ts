import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { loadTargets, verdictCoder } from '../../src/main/metrics/load'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { openWorkspace } from '../../src/main/store/connection'
import { getDataset } from '../../src/main/store/repos/datasets'
import { loadRuns } from '../../src/main/verdicts/columns'
import { runFailures } from '../../src/main/verdicts/failures'
import { buildColumn, verdictColumns } from '../../src/main/verdicts/stored'
import { writeVerdictsMany } from '../../src/main/verdicts/write'
import { FAAF_SCHEMA, type LabelSchema } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { bulkWrites, type Fixture, makeFixture } from './fixture'

const tmp = tmpDirs()

const TARGETS = 12
// Numbers and a blank too: the same verdicts under a numeric schema take the per-row path's rules.
const verdict = fc.constantFrom<string | null>(
  'true',
  'false',
  'not_clear',
  'maybe',
  '1',
  '4',
  ' ',
  'NA',
  'ERR',
  null,
)
const NUMERIC: LabelSchema = { type: 'numeric', name: 'score 0-5', min: 0, max: 5, step: 1, threshold: 3 }
const schema = fc.constantFrom(FAAF_SCHEMA, NUMERIC)
const labelValues = (s: LabelSchema) =>
  s.type === 'numeric' ? ['1', '3', '5'] : ['true', 'false', 'not_clear']
const runSpec = fc.array(verdict, { minLength: TARGETS, maxLength: TARGETS })

/** Every way the verdicts, the targets and the labels of a dataset change. */
const op = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), run: fc.nat(), target: fc.nat(TARGETS - 1), v: verdict }),
  fc.record({ kind: fc.constant('update' as const), run: fc.nat(), target: fc.nat(TARGETS - 1), v: verdict }),
  fc.record({ kind: fc.constant('delete' as const), run: fc.nat(), target: fc.nat(TARGETS - 1) }),
  // A batch run's pass: many verdicts in one bulk write (migration 0150), replacing some.
  fc.record({
    kind: fc.constant('bulk' as const),
    run: fc.nat(),
    verdicts: fc.array(fc.tuple(fc.nat(TARGETS - 1), verdict), { maxLength: TARGETS }),
  }),
  fc.record({ kind: fc.constant('score' as const), run: fc.nat(), target: fc.nat(TARGETS - 1) }),
  fc.record({ kind: fc.constant('newRun' as const), verdicts: runSpec }),
  fc.record({ kind: fc.constant('dropRun' as const), run: fc.nat() }),
  fc.record({ kind: fc.constant('editUnit' as const), target: fc.nat(TARGETS - 1) }),
  fc.record({ kind: fc.constant('deleteUnit' as const), target: fc.nat(TARGETS - 1) }),
  fc.record({
    kind: fc.constant('label' as const),
    annotator: fc.constantFrom('ana', 'bob', 'cy'),
    target: fc.nat(TARGETS - 1),
    v: fc.nat(2),
  }),
  fc.record({
    kind: fc.constant('otherProcess' as const),
    run: fc.nat(),
    target: fc.nat(TARGETS - 1),
    v: verdict,
  }),
)
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never

const status = (v: string | null) => (v === 'NA' ? 'na' : v === 'ERR' ? 'error' : 'ok')

/** Applies one change; `other` is a second connection to the same file (another process). */
function apply(fx: Fixture, other: ReturnType<typeof openWorkspace>, runs: number[], o: Op): void {
  const db = fx.db
  const runOf = (n: number) => runs[n % Math.max(1, runs.length)]
  const target = (i: number) => fx.targets[i]!.id
  switch (o.kind) {
    case 'insert':
    case 'otherProcess': {
      const run = runOf(o.run)
      if (run === undefined || o.v === null)
        return // The judge engine writes with INSERT OR REPLACE: a replaced row fires no delete trigger.
      ;(o.kind === 'insert' ? db : other)
        .prepare('INSERT OR REPLACE INTO verdicts (run_id, target_id, status, verdict) VALUES (?, ?, ?, ?)')
        .run(run, target(o.target), status(o.v), status(o.v) === 'ok' ? o.v : null)
      return
    }
    case 'update': {
      const run = runOf(o.run)
      if (run === undefined || o.v === null) return
      db.prepare('UPDATE verdicts SET status = ?, verdict = ? WHERE run_id = ? AND target_id = ?').run(
        status(o.v),
        status(o.v) === 'ok' ? o.v : null,
        run,
        target(o.target),
      )
      return
    }
    case 'bulk': {
      const run = runOf(o.run)
      if (run !== undefined) writeVerdictsMany(db, run, bulkWrites(fx.targets, o.verdicts))
      return
    }
    case 'delete': {
      const run = runOf(o.run)
      if (run !== undefined)
        db.prepare('DELETE FROM verdicts WHERE run_id = ? AND target_id = ?').run(run, target(o.target))
      return
    }
    case 'score': {
      const run = runOf(o.run)
      if (run !== undefined)
        db.prepare('UPDATE verdicts SET score = 0.5 WHERE run_id = ? AND target_id = ?').run(
          run,
          target(o.target),
        )
      return
    }
    case 'newRun':
      runs.push(fx.run(`m${runs.length}`, o.verdicts))
      return
    case 'dropRun': {
      // A withdrawn verdict import: the run and (by cascade) its verdicts go.
      const run = runOf(o.run)
      if (run === undefined) return
      db.prepare('DELETE FROM runs WHERE id = ?').run(run)
      runs.splice(runs.indexOf(run), 1)
      return
    }
    case 'editUnit':
    case 'deleteUnit': {
      const unit = db.prepare('SELECT unit_id FROM targets WHERE id = ?').pluck().get(target(o.target))
      db.prepare(
        o.kind === 'deleteUnit'
          ? "UPDATE units SET deleted_at = '2026-01-02' WHERE id = ?"
          : 'UPDATE units SET superseded_by = id WHERE id = ?',
      ).run(unit)
      return
    }
    case 'label':
      fx.label(o.annotator, o.target, labelValues(getDataset(db, fx.datasetId).labelSchema)[o.v]!)
      return
  }
}

function readBoth(fx: Fixture, runs: number[]) {
  const schema = getDataset(fx.db, fx.datasetId).labelSchema
  const t = loadTargets(fx.db, fx.datasetId, schema)
  const coder = verdictCoder(schema, t.labels)
  return {
    columns: loadRuns(fx.db, runs, t, coder),
    rows: loadRuns(fx.db, runs, t, coder, { columns: false }),
  }
}

describe('verdict columns (migration 0100)', () => {
  it('read every run exactly as its rows do, after any sequence of changes from any connection', () => {
    fc.assert(
      fc.property(
        schema,
        fc.array(runSpec, { minLength: 1, maxLength: 3 }),
        fc.array(op, { maxLength: 25 }),
        (labelSchema, initial, ops) => {
          const fx = makeFixture(tmp(), {
            items: 3,
            variants: ['answer', 'poor_answer'],
            facts: 2,
            schema: labelSchema,
          })
          const other = openWorkspace(fx.db.name, { skipQuickCheck: true })
          try {
            const runs = initial.map((v, i) => fx.run(`m${i}`, v))
            for (const o of ops) {
              // Reading stores the columns, so the next change must invalidate stored ones.
              const { columns, rows } = readBoth(fx, runs)
              expect(columns).toEqual(rows)
              // The Judges view's counts and failure classes, read off the stored columns.
              const stored = verdictColumns(fx.db, runs)
              for (const run of runs)
                expect(runFailures(fx.db, run, stored.get(run))).toEqual(runFailures(fx.db, run))
              apply(fx, other, runs, o)
            }
            const { columns, rows } = readBoth(fx, runs)
            expect(columns).toEqual(rows)
            // What is stored after the last read is what a rebuild from the rows gives.
            const stored = fx.db.prepare('SELECT run_id FROM verdict_columns').pluck().all()
            expect(new Set(stored)).toEqual(new Set(runs))
          } finally {
            other.close()
            fx.db.close()
          }
        },
      ),
      { numRuns: 20 },
    )
  })

  it('give the same metrics, to the last digit, as a fresh read after another process changed the verdicts', () => {
    fc.assert(
      fc.property(
        schema,
        fc.array(runSpec, { minLength: 2, maxLength: 3 }),
        fc.array(op, { maxLength: 10 }),
        (labelSchema, initial, ops) => {
          const fx = makeFixture(tmp(), {
            items: 3,
            variants: ['answer', 'poor_answer'],
            facts: 2,
            schema: labelSchema,
          })
          const other = openWorkspace(fx.db.name, { skipQuickCheck: true })
          try {
            const runs = initial.map((v, i) => fx.run(`m${i}`, v))
            const values = labelValues(labelSchema)
            fx.labelAll(
              'ana',
              fx.targets.map((_, i) => values[i % 3]!),
            )
            computeDatasetMetrics(fx.db, fx.datasetId, { replicates: 20 })
            for (const o of ops)
              apply(fx, other, runs, { ...o, kind: o.kind === 'insert' ? 'otherProcess' : o.kind } as Op)
            const kept = computeDatasetMetrics(fx.db, fx.datasetId, { replicates: 20 })
            const fresh = openWorkspace(fx.db.name, { skipQuickCheck: true })
            fresh.prepare('DELETE FROM verdict_columns').run()
            expect(kept).toEqual(computeDatasetMetrics(fresh, fx.datasetId, { replicates: 20 }))
            fresh.close()
          } finally {
            other.close()
            fx.db.close()
          }
        },
      ),
      { numRuns: 12 },
    )
  })

  it('leaves out runs whose verdicts do not fit a column, and the readers fall back to the rows', () => {
    expect(buildColumn([[5, 'ok', 'true', 1]])).toBeNull()
    expect(
      buildColumn([
        [1, 'ok', 'true', 0],
        [100_000, 'ok', 'false', 0],
      ]),
    ).toBeNull()
    const many = Array.from({ length: 300 }, (_, i) => [i + 1, 'ok', String(i), 0] as const)
    expect(buildColumn(many)).toBeNull()
    const col = buildColumn([
      [7, 'ok', 'true', 0],
      [9, 'na', null, 0],
      [8, 'ok', 'null', 0],
    ])!
    expect(col.lo).toBe(7)
    expect(col.dict).toEqual([
      ['ok', 'true'],
      ['na', null],
      ['ok', 'null'],
    ])
    expect([...col.codes]).toEqual([1, 3, 2])
  })
})
