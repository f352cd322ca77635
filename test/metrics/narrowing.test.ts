import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { labelledByTime } from '../../src/main/labels/reads'
import { runSpan, ST_OK } from '../../src/main/metrics/load'
import { narrowing } from '../../src/main/metrics/narrowing'
import { datasetSnapshot, runLabel } from '../../src/main/metrics/snapshot'
import { addPair, emptyCells, NONE } from '../../src/main/metrics/stats/binary'
import { errorRateCi } from '../../src/main/metrics/stats/bootstrap'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

/** The chart spelled out: the whole replayed sequence, then each run's pairs over its prefixes. */
function reference(db: Parameters<typeof narrowing>[0], datasetId: number, points: number) {
  const { t, runs, columns } = datasetSnapshot(db, datasetId)
  const n = t.ids.length
  if (n === 0) return []
  const order = labelledByTime(db, t.ids[0]!, t.ids[n - 1]!)
    .map((id) => (id < t.indexOf.length ? t.indexOf[id]! : -1))
    .filter((i) => i >= 0 && t.goldBin[i] !== NONE && t.stored[i]! < 0)
  const head: number[] = []
  for (let i = 0; i < n; i++) if (t.stored[i]! >= 0 && t.goldBin[i] !== NONE) head.push(i)
  const sequence = head.concat(order)
  if (sequence.length === 0) return []
  const checkpoints = [
    ...new Set(Array.from({ length: points }, (_, k) => Math.ceil(((k + 1) * sequence.length) / points))),
  ]
  return runs.map((r) => {
    const run = columns.get(r.id)!
    const [from, to] = runSpan(run)
    return {
      runId: r.id,
      label: runLabel(r),
      points: checkpoints.map((checkpoint) => {
        const cells = emptyCells()
        for (const i of sequence.slice(0, checkpoint))
          if (i >= from && i < to && run.status[i] === ST_OK) addPair(cells, run.bin[i]!, t.goldBin[i]!)
        const ci = errorRateCi(cells, { seed: 1, replicates: 300 })
        return {
          gold: checkpoint,
          n: cells.tp + cells.fp + cells.fn + cells.tn,
          width: ci ? ci[1] - ci[0] : null,
        }
      }),
    }
  })
}

const verdict = fc.constantFrom<string | null>('true', 'false', 'not_clear', null)

describe('the narrowing chart', () => {
  it('replays stored gold first, then the labels’ gold by time, each run over its own targets', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(15), fc.constantFrom('ana', 'bob', 'cy'), verdict, fc.nat(5)), {
          maxLength: 40,
        }),
        fc.array(fc.tuple(fc.nat(15), fc.constantFrom('true', 'false')), { maxLength: 4 }),
        fc.array(fc.array(verdict, { minLength: 16, maxLength: 16 }), { maxLength: 3 }),
        fc.integer({ min: 1, max: 12 }),
        (labels, gold, runs, points) => {
          const fx = makeFixture(tmp(), { items: 4, variants: ['answer', 'poor_answer'], facts: 2 })
          for (const [k, who, v, day] of labels) {
            if (v === null) continue
            fx.label(who, k, v)
            // Ties of time, and labels saved out of target order.
            fx.db
              .prepare(
                `UPDATE labels SET updated_at = ? WHERE target_id = ? AND annotator_id = (SELECT id FROM annotators WHERE name = ?)`,
              )
              .run(`2026-01-0${day + 1}T10:00:00.000Z`, fx.targets[k]!.id, who)
          }
          for (const [k, v] of gold)
            fx.db
              .prepare(
                `INSERT OR REPLACE INTO gold (target_id, verdict, source, updated_at) VALUES (?, ?, 'import', '2026-01-01')`,
              )
              .run(fx.targets[k]!.id, v)
          for (const [r, vs] of runs.entries()) fx.run(`m${r}`, vs)
          expect(narrowing(fx.db, fx.datasetId, points)).toEqual(reference(fx.db, fx.datasetId, points))
          fx.db.close()
        },
      ),
      { seed: 3, numRuns: 60 },
    )
  })
})
