import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  awaitCompareAgreement,
  awaitCompareLists,
  startCompareLists,
} from '../../src/main/metrics/compareInBackground'
import { backgroundLists } from '../../src/main/metrics/keptLists'
import { narrowing } from '../../src/main/metrics/narrowing'
import { disagreements, labelNext } from '../../src/main/metrics/queries'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { datasetSnapshot, isMemoised, workspaceVersion } from '../../src/main/metrics/snapshot'
import { type Db, openWorkspace } from '../../src/main/store/connection'
import { tmpDirs } from '../helpers/tmp'
import { apply, change, expectServedAsElsewhere, TARGETS } from './changes'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

/** Everything the Compare view's lists show, as served to the view. */
function served(db: Db, datasetId: number) {
  return {
    next: labelNext(db, datasetId, 25),
    nextDefault: labelNext(db, datasetId),
    nextLonger: labelNext(db, datasetId, 60),
    disagreements: disagreements(db, datasetId, { limit: 200 }),
    fewer: disagreements(db, datasetId, { limit: 3 }),
    oneVariant: disagreements(db, datasetId, { variant: 'poor_answer' }),
    chart: narrowing(db, datasetId),
    // The view's figures, their agreement among the annotators included.
    figures: computeDatasetMetrics(db, datasetId, { replicates: 50 }),
  }
}

/**
 * The lists worked out on another thread (the Compare view of a large dataset) are the ones the
 * app's own thread works out, read by a second connection that never starts a worker, and lists
 * of a workspace that changed while they were worked out are never served.
 */
describe('the Compare view’s lists worked out in the background', () => {
  it('are the main thread’s lists and figures, and a change made meanwhile drops them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { maxLength: 30 }),
        fc.array(change, { maxLength: 2 }),
        async (before, during) => {
          const fx = makeFixture(tmp(), { items: 4, variants: ['answer', 'poor_answer'], facts: 2 })
          const runs = { n: 0 }
          fx.run(
            `m${runs.n++}`,
            Array.from({ length: TARGETS }, (_, i) => (i % 3 === 0 ? 'false' : 'true')),
          )
          for (const c of before) apply(fx, c, runs)
          startCompareLists(fx.db, fx.datasetId, 0)
          const version = workspaceVersion(fx.db)
          for (const c of during) apply(fx, c, runs)
          const changed = workspaceVersion(fx.db) !== version
          await awaitCompareAgreement(fx.db, fx.datasetId)
          // The worker's agreement figures are kept only with the snapshot they were worked out from.
          expect(isMemoised(fx.db, fx.datasetId, 'agreement')).toBe(!changed)
          await awaitCompareLists(fx.db, fx.datasetId)
          // Kept with the snapshot the worker was handed: the current one only if nothing changed.
          expect(backgroundLists(datasetSnapshot(fx.db, fx.datasetId)) !== undefined).toBe(!changed)
          expectServedAsElsewhere(fx, served)
        },
      ),
      { seed: 11, numRuns: 20 },
    )
  })

  it('leaves the lists to the main thread when the worker fails', async () => {
    const fx = makeFixture(tmp(), { items: 4, variants: ['answer', 'poor_answer'], facts: 2 })
    fx.run(
      'm',
      Array.from({ length: TARGETS }, (_, i) => (i % 3 === 0 ? 'false' : 'true')),
    )
    fx.label('ana', 0, 'true')
    fx.label('bob', 1, 'false')
    const failing = join(tmp(), 'failing.mjs')
    writeFileSync(failing, "throw new Error('no lists today')\n")
    startCompareLists(fx.db, fx.datasetId, 0, { url: pathToFileURL(failing) })
    await awaitCompareAgreement(fx.db, fx.datasetId)
    expect(isMemoised(fx.db, fx.datasetId, 'agreement')).toBe(false)
    await awaitCompareLists(fx.db, fx.datasetId)
    expect(backgroundLists(datasetSnapshot(fx.db, fx.datasetId))).toBeUndefined()
    const got = served(fx.db, fx.datasetId)
    expect(got.next.length).toBeGreaterThan(0)
    const other = openWorkspace(fx.db.name, { skipQuickCheck: true })
    expect(JSON.stringify(got)).toBe(JSON.stringify(served(other, fx.datasetId)))
    other.close()
    fx.db.close()
  })

  it('leaves the lists to the main thread for a small dataset', async () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer'], facts: 2 })
    fx.run('m', ['true', 'false', 'true', 'false'])
    startCompareLists(fx.db, fx.datasetId)
    await awaitCompareLists(fx.db, fx.datasetId)
    expect(backgroundLists(datasetSnapshot(fx.db, fx.datasetId))).toBeUndefined()
    expect(labelNext(fx.db, fx.datasetId).map((r) => r.targetId)).toHaveLength(4)
    fx.db.close()
  })
})
