import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  loadTargets,
  runSpan,
  runSpanColumns,
  ST_ERROR,
  ST_NA,
  ST_NONE,
  ST_OK,
  scanSpan,
  verdictCoder,
} from '../../src/main/metrics/load'
import { getDataset } from '../../src/main/store/repos/datasets'
import { loadRuns } from '../../src/main/verdicts/columns'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

/** What one verdict row means, spelled out row by row (the loader's contract). */
function expected(
  coder: ReturnType<typeof verdictCoder>,
  labels: string[],
  row: { status: string; verdict: string | null; score: number | null } | undefined,
) {
  if (!row) return { status: ST_NONE, bin: -1, code: -1, num: Number.NaN }
  if (row.status !== 'ok')
    return { status: row.status === 'na' ? ST_NA : ST_ERROR, bin: -1, code: -1, num: Number.NaN }
  const known = row.verdict !== null && labels.includes(row.verdict)
  const bin = coder.bin(row.verdict, row.score)
  // A verdict outside the schema counts as a format failure.
  if (!known || bin < 0) return { status: ST_NA, bin: -1, code: -1, num: Number.NaN }
  return { status: ST_OK, bin, code: coder.code(row.verdict), num: coder.num(row.verdict, row.score) }
}

const verdict = fc.constantFrom<string | null>('true', 'false', 'not_clear', 'maybe', 'NA', 'ERR', null)
const run = fc.record({
  verdicts: fc.array(verdict, { minLength: 12, maxLength: 12 }),
  // Some runs judge every target (one unbroken id range), others leave holes.
  complete: fc.boolean(),
  scores: fc.option(
    fc.array(fc.option(fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 12, maxLength: 12 }),
  ),
})

describe('loadRuns', () => {
  it('reads every run the same whether its verdicts are complete, have holes or carry scores', () => {
    fc.assert(
      fc.property(fc.array(run, { minLength: 1, maxLength: 4 }), fc.nat(11), (runs, removed) => {
        const fx = makeFixture(tmp(), { items: 3, variants: ['answer', 'poor_answer'], facts: 2 })
        const ids = runs.map((r) =>
          fx.run(
            'm',
            r.verdicts.map((v) => (r.complete && v === null ? 'true' : v)),
            { scores: r.scores ?? undefined },
          ),
        )
        // A deleted unit's targets stay in the verdicts but are no longer the dataset's targets.
        fx.db
          .prepare(
            "UPDATE units SET deleted_at = '2026-01-02' WHERE id = (SELECT unit_id FROM targets WHERE id = ?)",
          )
          .run(fx.targets[removed]!.id)
        const schema = getDataset(fx.db, fx.datasetId).labelSchema
        const t = loadTargets(fx.db, fx.datasetId, schema)
        const coder = verdictCoder(schema, t.labels)
        const loaded = loadRuns(fx.db, ids, t, coder)
        const rows = fx.db
          .prepare('SELECT run_id AS runId, target_id AS targetId, status, verdict, score FROM verdicts')
          .all() as {
          runId: number
          targetId: number
          status: string
          verdict: string | null
          score: number | null
        }[]
        for (const id of ids) {
          const r = loaded.get(id)!
          const mine = new Map(rows.filter((row) => row.runId === id).map((row) => [row.targetId, row]))
          expect(r.hasScores).toBe([...mine.values()].some((row) => row.score !== null))
          t.ids.forEach((targetId, i) => {
            const want = expected(coder, t.labels, mine.get(targetId))
            expect({ status: r.status[i], bin: r.bin[i], code: r.code[i], num: r.num[i] }).toEqual(want)
          })
          // The span a column's loader notes is the one the statuses show, and the columns the
          // counting passes read over it are the full-length ones' (made or not).
          const reached = runSpanColumns(r)
          expect(runSpan(r)).toEqual(scanSpan(r.status))
          expect([reached.from, reached.to]).toEqual(scanSpan(r.status))
          expect(reached.status).toEqual(r.status.subarray(reached.from, reached.to))
          expect(reached.bin).toEqual(r.bin.subarray(reached.from, reached.to))
          expect(reached.code).toEqual(r.code.subarray(reached.from, reached.to))
        }
        fx.db.close()
      }),
      { numRuns: 25 },
    )
  })
})

describe('a run’s span', () => {
  it('is the first to one past the last target with a status, whatever the offset and length', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(ST_NONE, ST_NONE, ST_NONE, ST_OK, ST_NA, ST_ERROR), { maxLength: 70 }),
        fc.nat(5),
        (statuses, offset) => {
          // A view into a larger buffer, so the word-wise scan meets unaligned starts too.
          const buffer = new Uint8Array(offset + statuses.length + 3)
          buffer.set(statuses, offset)
          const status = buffer.subarray(offset, offset + statuses.length)
          const run = {
            bin: new Int8Array(0),
            code: new Int16Array(0),
            num: new Float64Array(0),
            status,
            hasScores: false,
          }
          const first = statuses.findIndex((s) => s !== ST_NONE)
          const last = statuses.findLastIndex((s) => s !== ST_NONE)
          const want = first < 0 ? [statuses.length, statuses.length] : [first, last + 1]
          expect(runSpan(run)).toEqual(want)
        },
      ),
      { seed: 7, numRuns: 500 },
    )
  })
})
