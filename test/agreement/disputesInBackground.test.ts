import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { adjudicationQueue } from '../../src/main/labels/adjudication'
import { readLabelBlocks } from '../../src/main/labels/blocks'
import {
  disputedTargetsByScan,
  disputedTargetsOnce,
  disputesKey,
  hasDisputes,
} from '../../src/main/labels/disputes'
import { awaitDisputes, startDisputes } from '../../src/main/labels/disputesInBackground'
import { setGold } from '../../src/main/labels/gold'
import { readTargetBlocks } from '../../src/main/metrics/targetBlocks'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { getDataset } from '../../src/main/store/repos/datasets'
import { dataVersion } from '../../src/main/store/version'
import { deleteUnit, editUnit } from '../../src/main/units/edit'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from '../metrics/fixture'

const tmp = tmpDirs()
const TARGETS = 12

const change = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('label' as const),
      who: fc.constantFrom('ana', 'bob', 'cy'),
      target: fc.nat(TARGETS - 1),
      verdict: fc.constantFrom<string | null>('true', 'false', 'not_clear', null),
    }),
  },
  fc.record({
    kind: fc.constant('gold' as const),
    target: fc.nat(TARGETS - 1),
    verdict: fc.constantFrom('true', 'false'),
  }),
  fc.record({ kind: fc.constant('edit' as const), target: fc.nat(TARGETS - 1) }),
  fc.record({ kind: fc.constant('delete' as const), target: fc.nat(TARGETS - 1) }),
  // The Agreement view's own read, which stores the label and target blocks it finds missing.
  fc.record({ kind: fc.constant('look' as const) }),
)

type Change = typeof change extends fc.Arbitrary<infer T> ? T : never

/**
 * The queue's list read in a worker thread (the Agreement view of a large dataset) is the list
 * the app's own read gives, and one read before a change is never served after it: after any
 * labels, gold, unit edits and deletes, with more of them landing while the worker reads.
 */
describe('the adjudication queue read in the background', () => {
  it('is the list the rows give, and a change made during the read drops it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { maxLength: 25 }),
        fc.array(change, { maxLength: 2 }),
        fc.constantFrom<string | null>(null, 'answer', 'poor_answer'),
        async (before, during, variant) => {
          const fx = makeFixture(tmp(), { items: 3, variants: ['answer', 'poor_answer'], facts: 2 })
          const db = fx.db
          const judge = ensureAnnotator(db, 'judy')
          const unitOf = (i: number) =>
            db.prepare('SELECT unit_id FROM targets WHERE id = ?').pluck().get(fx.targets[i]!.id) as number
          const apply = (c: Change) => {
            try {
              if (c.kind === 'label') {
                ensureAnnotator(db, c.who)
                fx.label(c.who, c.target, c.verdict as string)
              } else if (c.kind === 'gold')
                setGold(db, {
                  targetId: fx.targets[c.target]!.id,
                  verdict: c.verdict,
                  source: 'adjudicated',
                  adjudicatorId: judge.id,
                })
              else if (c.kind === 'edit') editUnit(db, unitOf(c.target), `edited ${c.target}`)
              else if (c.kind === 'delete') deleteUnit(db, unitOf(c.target))
              else look()
            } catch {
              // A change the app refuses (a deleted unit's label) changes nothing.
            }
          }
          const look = () => {
            readTargetBlocks(db, fx.datasetId)
            readLabelBlocks(db, 0, 10_000)
          }
          for (const c of before) apply(c)
          const schema = getDataset(db, fx.datasetId).labelSchema
          const data = dataVersion(db)
          startDisputes(db, schema, fx.datasetId, variant, 0)
          for (const c of during) apply(c)
          const changed = dataVersion(db) !== data
          await awaitDisputes(db, schema, fx.datasetId, variant)
          // Kept only when no data changed since the read began (stored blocks are no change).
          expect(hasDisputes(db, disputesKey(db, schema, fx.datasetId, variant))).toBe(!changed)
          const want = disputedTargetsByScan(db, schema, fx.datasetId, variant)
          expect(disputedTargetsOnce(db, schema, fx.datasetId, variant)).toEqual(want)
          const page = adjudicationQueue(db, fx.datasetId, { status: 'all', ...(variant ? { variant } : {}) })
          expect(page.entries.map((e) => e.targetId)).toEqual(want.map((t) => t.targetId))
          db.close()
        },
      ),
      { numRuns: 25 },
    )
  })

  it('survives the view storing label and target blocks while it reads', async () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer'], facts: 2 })
    const db = fx.db
    fx.label('ana', 0, 'true')
    fx.label('bob', 0, 'false')
    const schema = getDataset(db, fx.datasetId).labelSchema
    const before = disputesKey(db, schema, fx.datasetId, null)
    startDisputes(db, schema, fx.datasetId, null, 0)
    readTargetBlocks(db, fx.datasetId)
    readLabelBlocks(db, 0, 10_000)
    expect(db.prepare('SELECT COUNT(*) FROM label_blocks').pluck().get()).toBeGreaterThan(0)
    const after = disputesKey(db, schema, fx.datasetId, null)
    expect(after).not.toBe(before)
    await awaitDisputes(db, schema, fx.datasetId, null)
    expect(hasDisputes(db, after)).toBe(true)
    expect(disputedTargetsOnce(db, schema, fx.datasetId, null)).toEqual([
      { targetId: fx.targets[0]!.id, decided: 0 },
    ])
    db.close()
  })

  it('is not started for a small dataset, and leaves the queue as the app reads it', async () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer'], facts: 2 })
    fx.label('ana', 0, 'true')
    fx.label('bob', 0, 'false')
    const schema = getDataset(fx.db, fx.datasetId).labelSchema
    startDisputes(fx.db, schema, fx.datasetId, null)
    await awaitDisputes(fx.db, schema, fx.datasetId, null)
    expect(hasDisputes(fx.db, disputesKey(fx.db, schema, fx.datasetId, null))).toBe(false)
    expect(adjudicationQueue(fx.db, fx.datasetId).entries.map((e) => e.targetId)).toEqual([fx.targets[0]!.id])
    fx.db.close()
  })
})
