import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { blocksRead, readBlocksInBackground } from '../../src/main/labels/blocksInBackground'
import { datasetAgreement } from '../../src/main/metrics/datasetAgreement'
import { narrowing } from '../../src/main/metrics/narrowing'
import { disagreements, labelNext } from '../../src/main/metrics/queries'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { currentSnapshot, datasetSnapshot, workspaceVersion } from '../../src/main/metrics/snapshot'
import { loadSnapshotEarly } from '../../src/main/metrics/snapshotInBackground'
import { type Db, openWorkspace } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { tmpDirs } from '../helpers/tmp'
import { apply, change, expectServedAsElsewhere, TARGETS } from './changes'
import { type Fixture, makeFixture } from './fixture'

const tmp = tmpDirs()

/** What the Agreement and Compare views show of the dataset. */
function served(db: Db, datasetId: number) {
  return {
    agreement: datasetAgreement(db, datasetId),
    figures: computeDatasetMetrics(db, datasetId, { replicates: 50 }),
    chart: narrowing(db, datasetId),
    next: labelNext(db, datasetId, 25),
    disagreements: disagreements(db, datasetId, { limit: 200 }),
  }
}

/** Reads the dataset's snapshot on a connection of its own, which stores the blocks it builds. */
function buildBlocks(fx: Fixture): void {
  const other = openWorkspace(fx.db.name, { skipQuickCheck: true })
  datasetSnapshot(other, fx.datasetId)
  other.close()
}

/**
 * A cold view's snapshot loaded with its label blocks read on another thread is the one the app's
 * own thread loads, and blocks read while the workspace changed are never used.
 */
describe('a cold load with the label blocks read in the background', () => {
  it('gives the views the figures and lists of a load on the app’s thread; a change made meanwhile voids it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { maxLength: 30 }),
        fc.boolean(),
        fc.array(change, { maxLength: 4 }),
        fc.array(change, { maxLength: 2 }),
        // The Compare view's load also reads the blocks' seconds and times in the background,
        // and the judge runs on this thread while the blocks are read.
        fc.boolean(),
        fc.boolean(),
        async (before, built, after, during, withTimes, withRuns) => {
          const fx = makeFixture(tmp(), { items: 4, variants: ['answer', 'poor_answer'], facts: 2 })
          const runs = { n: 0 }
          fx.run(
            `m${runs.n++}`,
            Array.from({ length: TARGETS }, (_, i) => (i % 3 === 0 ? 'false' : 'true')),
          )
          for (const c of before) apply(fx, c, runs)
          // Stored blocks to read, some of them dropped again by the changes after.
          if (built) buildBlocks(fx)
          for (const c of after) apply(fx, c, runs)
          const loading = loadSnapshotEarly(fx.db, fx.datasetId, { fromTargets: 0, withTimes, withRuns })
          const version = workspaceVersion(fx.db)
          for (const c of during) apply(fx, c, runs)
          const changed = workspaceVersion(fx.db) !== version
          const loaded = await loading
          if (changed) expect(loaded).toBe(false)
          // With the dataset's blocks stored, the load goes through the background read.
          if (built && !changed) expect(loaded).toBe(true)
          expect(currentSnapshot(fx.db, fx.datasetId) !== null).toBe(loaded)
          expectServedAsElsewhere(fx, served)
        },
      ),
      { seed: 7, numRuns: 25 },
    )
  })

  it('hands over the stored blocks only while nothing changed since the read began', async () => {
    const fx = makeFixture(tmp(), { items: 4, variants: ['answer'], facts: 2 })
    fx.label('ana', 0, 'true')
    buildBlocks(fx)
    const read = readBlocksInBackground(fx.db, 0, 0)
    expect(read).not.toBeNull()
    const blocks = await blocksRead(fx.db, read!)
    expect(blocks?.map(([b]) => b)).toEqual([0])
    const again = readBlocksInBackground(fx.db, 0, 0)
    ensureAnnotator(fx.db, 'bob')
    fx.label('bob', 1, 'false')
    expect(await blocksRead(fx.db, again!)).toBeNull()
    fx.db.close()
  })

  it('leaves a small dataset, and numeric labels (kept in no blocks), to the view’s own load', async () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer'], facts: 2 })
    fx.label('ana', 0, 'true')
    buildBlocks(fx)
    expect(await loadSnapshotEarly(fx.db, fx.datasetId)).toBe(false)
    expect(currentSnapshot(fx.db, fx.datasetId)).toBeNull()
    fx.db.close()
    const scores = makeFixture(tmp(), {
      items: 2,
      variants: ['answer'],
      facts: 2,
      schema: { type: 'numeric', name: 'score', min: 1, max: 5, step: 1, threshold: 3 },
    })
    scores.label('ana', 0, '4')
    buildBlocks(scores)
    expect(await loadSnapshotEarly(scores.db, scores.datasetId, { fromTargets: 0 })).toBe(false)
    scores.db.close()
  })
})
