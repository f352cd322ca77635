import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { insertCall, runCost, runSummary } from '../../src/main/runs/repo'
import { allFailedReason, anyAnswer, runFailures } from '../../src/main/verdicts/failures'
import { writeVerdicts } from '../../src/main/verdicts/write'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from '../metrics/fixture'
import { finishedCall, lexicalRun } from './helpers'

const tmp = tmpDirs()

const target = fc.record({
  status: fc.option(fc.constantFrom('ok', 'na', 'error'), { nil: undefined }),
  cost: fc.option(fc.constantFrom(0, 0.000125, 0.1, 0.3, 1e-7, 2.5), { nil: undefined }),
})

describe('what a judge run reads as it starts and ends', () => {
  it('fails a run as a whole exactly when counting every status would, and its cost so far is the summary’s', () => {
    fc.assert(
      fc.property(fc.array(target, { maxLength: 12 }), (targets) => {
        const fx = makeFixture(tmp(), { items: 12, variants: ['answer'], facts: 1 })
        const run = lexicalRun(fx.db, fx.datasetId)
        const ids = fx.db.prepare('SELECT id FROM targets ORDER BY id').pluck().all() as number[]
        for (const [i, t] of targets.entries()) {
          const callId =
            t.cost === undefined ? null : insertCall(fx.db, finishedCall(run, i, { cost: t.cost }))
          if (t.status !== undefined)
            writeVerdicts(
              fx.db,
              run,
              [
                {
                  targetId: ids[i] as number,
                  status: t.status,
                  verdict: t.status === 'ok' ? 'supported' : null,
                  ...(t.status === 'error' ? { problem: 'server error: 500' } : {}),
                },
              ],
              callId,
            )
        }
        const counted = runFailures(fx.db, run)
        expect(anyAnswer(fx.db, run)).toBe(counted.ok + counted.na > 0)
        // The engine classes the failures only when no answer came back; the reason is the same.
        const reason = anyAnswer(fx.db, run) ? null : allFailedReason(runFailures(fx.db, run))
        expect(reason).toBe(allFailedReason(counted))
        expect(runCost(fx.db, run)).toBe(runSummary(fx.db, run).cost)
        fx.db.close()
      }),
      { numRuns: 40, seed: 1107 },
    )
  })
})
