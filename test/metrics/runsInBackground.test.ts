import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { runSpan } from '../../src/main/metrics/load'
import { awaitRuns, startRuns } from '../../src/main/metrics/runsInBackground'
import { datasetSnapshot, runsProvided, type Snapshot } from '../../src/main/metrics/snapshot'
import { type Db, openWorkspace } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { dataVersion } from '../../src/main/store/version'
import { tmpDirs } from '../helpers/tmp'
import { type Fixture, makeFixture } from './fixture'

const tmp = tmpDirs()
const TARGETS = 12

const verdict = fc.constantFrom<string | null>('true', 'false', 'not_clear', 'maybe', 'NA', 'ERR', null)
const run = fc.record({
  verdicts: fc.array(verdict, { minLength: TARGETS, maxLength: TARGETS }),
  scores: fc.option(
    fc.array(fc.option(fc.double({ min: 0, max: 1, noNaN: true })), {
      minLength: TARGETS,
      maxLength: TARGETS,
    }),
  ),
})
const change = fc.oneof(
  fc.record({
    kind: fc.constant('label' as const),
    who: fc.constantFrom('ana', 'bob'),
    target: fc.nat(TARGETS - 1),
    verdict: fc.constantFrom('true', 'false'),
  }),
  fc.record({ kind: fc.constant('run' as const), run }),
  fc.record({ kind: fc.constant('verdict' as const), target: fc.nat(TARGETS - 1) }),
)
type Change = typeof change extends fc.Arbitrary<infer T> ? T : never

function apply(fx: Fixture, c: Change, runs: number[]): void {
  if (c.kind === 'label') {
    ensureAnnotator(fx.db, c.who)
    fx.label(c.who, c.target, c.verdict)
  } else if (c.kind === 'run')
    runs.push(fx.run(`m${runs.length}`, c.run.verdicts, { scores: c.run.scores ?? undefined }))
  else if (runs.length > 0)
    fx.db
      .prepare("UPDATE verdicts SET verdict = 'false', status = 'ok' WHERE run_id = ? AND target_id = ?")
      .run(runs[0], fx.targets[c.target]!.id)
}

/** Every column of every run of a snapshot, with its span, as plain arrays. */
function columnsOf(s: Snapshot) {
  return s.runs.map((r) => {
    const c = s.columns.get(r.id)!
    return {
      id: r.id,
      status: [...c.status],
      bin: [...c.bin],
      code: [...c.code],
      num: [...c.num].map(String),
      hasScores: c.hasScores,
      span: runSpan(c),
    }
  })
}

/**
 * The judge runs read in a worker thread (the Compare view of a large dataset) are the columns
 * the app's own load gives, read here by a second connection, and runs read before a change are
 * never handed to a snapshot after it.
 */
describe('the judge runs read in the background', () => {
  it('are the columns the main thread loads, and a change made during the read drops them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(run, { maxLength: 3 }),
        fc.array(change, { maxLength: 4 }),
        fc.array(change, { maxLength: 2 }),
        async (first, before, during) => {
          const fx = makeFixture(tmp(), { items: 3, variants: ['answer', 'poor_answer'], facts: 2 })
          const runs = first.map((r, k) => fx.run(`r${k}`, r.verdicts, { scores: r.scores ?? undefined }))
          for (const c of before) apply(fx, c, runs)
          const at = dataVersion(fx.db)
          startRuns(fx.db, fx.datasetId, 0)
          for (const c of during) apply(fx, c, runs)
          const changed = dataVersion(fx.db) !== at
          const snapshot = datasetSnapshot(fx.db, fx.datasetId)
          await awaitRuns(fx.db, fx.datasetId)
          expect(runsProvided(snapshot)).toBe(!changed)
          const other: Db = openWorkspace(fx.db.name, { skipQuickCheck: true })
          try {
            expect(columnsOf(snapshot)).toEqual(columnsOf(datasetSnapshot(other, fx.datasetId)))
          } finally {
            other.close()
            fx.db.close()
          }
        },
      ),
      { seed: 13, numRuns: 12 },
    )
  })
})
