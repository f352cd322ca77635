import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { adjudicationQueue } from '../../src/main/labels/adjudication'
import { disputedTargets, disputedTargetsByScan } from '../../src/main/labels/disputes'
import { setGold } from '../../src/main/labels/gold'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { getDataset } from '../../src/main/store/repos/datasets'
import { deleteUnit, editUnit, mergeUnits, restoreUnit } from '../../src/main/units/edit'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from '../metrics/fixture'

const tmp = tmpDirs()
const TARGETS = 12

const op = fc.oneof(
  {
    // Often, and on few targets, so labels are changed and disputes opened and closed.
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('label' as const),
      who: fc.constantFrom('ana', 'bob', 'cy'),
      target: fc.nat(4),
      verdict: fc.constantFrom<string | null>('true', 'false', 'not_clear', null),
    }),
  },
  fc.record({
    kind: fc.constant('gold' as const),
    target: fc.nat(4),
    verdict: fc.constantFrom('true', 'false'),
  }),
  fc.record({ kind: fc.constant('edit' as const), target: fc.nat(TARGETS - 1) }),
  fc.record({ kind: fc.constant('delete' as const), target: fc.nat(TARGETS - 1) }),
  fc.record({ kind: fc.constant('restore' as const), target: fc.nat(TARGETS - 1) }),
  fc.record({ kind: fc.constant('merge' as const), a: fc.nat(TARGETS - 1), b: fc.nat(TARGETS - 1) }),
)

describe('the adjudication queue from the kept open disputes', () => {
  it('lists the same targets, in the same order, as grouping every label', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 40 }),
        fc.constantFrom<string | null>(null, 'answer', 'poor_answer'),
        (ops, variant) => {
          const fx = makeFixture(tmp(), { items: 3, variants: ['answer', 'poor_answer'], facts: 2 })
          const db = fx.db
          const judge = ensureAnnotator(db, 'judy')
          const unitOf = (i: number) =>
            db.prepare('SELECT unit_id FROM targets WHERE id = ?').pluck().get(fx.targets[i]!.id) as number
          const current = (i: number) =>
            db
              .prepare('SELECT superseded_by IS NULL AND deleted_at IS NULL FROM units WHERE id = ?')
              .pluck()
              .get(unitOf(i)) === 1
          const quietly = (fn: () => unknown) => {
            try {
              fn()
            } catch {
              // An edit the app refuses (e.g. merging a unit with itself) changes nothing.
            }
          }
          for (const o of ops) {
            if (o.kind === 'label')
              quietly(() =>
                fx.db.transaction(() => {
                  const a = ensureAnnotator(db, o.who)
                  if (current(o.target)) fx.label(o.who, o.target, o.verdict as string)
                  return a
                })(),
              )
            else if (o.kind === 'gold')
              quietly(() =>
                setGold(db, {
                  targetId: fx.targets[o.target]!.id,
                  verdict: o.verdict,
                  source: 'adjudicated',
                  adjudicatorId: judge.id,
                }),
              )
            else if (o.kind === 'edit') quietly(() => editUnit(db, unitOf(o.target), `edited ${o.target}`))
            else if (o.kind === 'delete') quietly(() => deleteUnit(db, unitOf(o.target)))
            else if (o.kind === 'restore') quietly(() => restoreUnit(db, unitOf(o.target)))
            else quietly(() => mergeUnits(db, [unitOf(o.a), unitOf(o.b)]))
            const schema = getDataset(db, fx.datasetId).labelSchema
            expect(disputedTargets(db, schema, fx.datasetId, variant)).toEqual(
              disputedTargetsByScan(db, schema, fx.datasetId, variant),
            )
          }
          db.close()
        },
      ),
      { numRuns: 20 },
    )
  })

  it('counts open and adjudicated targets', () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer'], facts: 2 })
    fx.label('ana', 0, 'true')
    fx.label('bob', 0, 'false')
    fx.label('ana', 1, 'true')
    fx.label('bob', 1, 'false')
    fx.label('ana', 2, 'true')
    fx.label('bob', 2, 'true')
    setGold(fx.db, {
      targetId: fx.targets[1]!.id,
      verdict: 'true',
      source: 'adjudicated',
      adjudicatorId: ensureAnnotator(fx.db, 'judy').id,
    })
    // Gold on targets nobody disputed (agreeing labels, a single label) puts nothing in the queue.
    fx.label('ana', 3, 'false')
    for (const i of [2, 3])
      setGold(fx.db, {
        targetId: fx.targets[i]!.id,
        verdict: 'true',
        source: 'adjudicated',
        adjudicatorId: null,
      })
    const q = adjudicationQueue(fx.db, fx.datasetId, { status: 'all' })
    expect({ open: q.open, adjudicated: q.adjudicated, total: q.total }).toEqual({
      open: 1,
      adjudicated: 1,
      total: 2,
    })
    expect(q.entries.map((e) => e.targetId)).toEqual([fx.targets[0]!.id, fx.targets[1]!.id])
    expect(getDataset(fx.db, fx.datasetId).labelSchema).toEqual(FAAF_SCHEMA)
    fx.db.close()
  })
})
