import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { setControls } from '../../src/main/projects/controls'
import { setPlan } from '../../src/main/projects/plan'
import { nextUnderPlan } from '../../src/main/projects/queue'
import type { Db } from '../../src/main/store/connection'
import { deleteUnit, editUnit } from '../../src/main/units/edit'
import { tmpDirs } from '../helpers/tmp'
import { referenceNext } from './queueReference'
import { seedProject } from './seed'

const tmp = tmpDirs()

type Step =
  | { kind: 'label'; who: number; target: number; verdict: 'true' | 'false' | null }
  | { kind: 'edit'; unit: number }
  | { kind: 'delete'; unit: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('label' as const),
      who: fc.nat({ max: 9 }),
      target: fc.nat({ max: 999 }),
      verdict: fc.constantFrom('true' as const, 'false' as const, null),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edit' as const), unit: fc.nat({ max: 999 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), unit: fc.nat({ max: 999 }) }) },
)

const currentUnits = (db: Db, ds: number) =>
  db
    .prepare(
      `SELECT u.id FROM units u JOIN items i ON i.id = u.item_id
       WHERE i.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL ORDER BY u.id`,
    )
    .pluck()
    .all(ds) as number[]

const allTargets = (db: Db, ds: number) =>
  db.prepare('SELECT id FROM targets WHERE dataset_id = ? ORDER BY id').pluck().all(ds) as number[]

describe('the plan queue against the query it replaced', () => {
  it('serves the same target for every person, position and state', () => {
    fc.assert(
      fc.property(
        fc.record({
          items: fc.integer({ min: 1, max: 5 }),
          variants: fc.integer({ min: 1, max: 3 }),
          facts: fc.integer({ min: 1, max: 3 }),
          annotators: fc.integer({ min: 3, max: 5 }),
          k: fc.integer({ min: 1, max: 3 }),
          fixed: fc.boolean(),
          seed: fc.nat({ max: 100 }),
          controlRate: fc.constantFrom(0, 0.2, 0.5),
          controls: fc.array(fc.nat({ max: 999 }), { maxLength: 4 }),
          steps: fc.array(step, { maxLength: 30 }),
        }),
        (s) => {
          const { ws, ds, targets, people } = seedProject(tmp(), s)
          try {
            const db = ws.db
            setPlan(db, {
              datasetId: ds.id,
              k: s.k,
              policy: s.fixed ? 'fixed' : 'open',
              seed: s.seed,
              controlRate: s.controlRate,
              annotators: people.map((p) => ({ name: p.name })),
            })
            const answers = [...new Set(s.controls.map((c) => targets[c % targets.length]!))]
            if (answers.length > 0 && answers.length < targets.length)
              setControls(
                db,
                ds.id,
                { fromGold: [], answers: answers.map((targetId) => ({ targetId, verdict: 'true' })) },
                '2026-01-01T00:00:00.000Z',
              )
            const agree = () => {
              const ids = allTargets(db, ds.id)
              const positions = [undefined, -1, ...ids, ids[ids.length - 1]! + 1]
              for (const p of people)
                for (const after of positions)
                  for (const opening of [false, true])
                    expect(nextUnderPlan(db, ds.id, p.id, after, opening), `${p.name} after ${after}`).toBe(
                      referenceNext(db, ds.id, p.id, after, opening),
                    )
            }
            agree()
            for (const st of s.steps) {
              if (st.kind === 'label') {
                const ids = allTargets(db, ds.id)
                const target = ids[st.target % ids.length]!
                const who = people[st.who % people.length]!.id
                ws.labels.save({ targetId: target, annotatorId: who, verdict: st.verdict })
              } else {
                const units = currentUnits(db, ds.id)
                if (units.length <= 1) continue
                const unit = units[st.unit % units.length]!
                if (st.kind === 'edit') editUnit(db, unit, `Changed ${unit}`)
                else deleteUnit(db, unit)
              }
              agree()
            }
          } finally {
            ws.close()
          }
        },
      ),
      { numRuns: 40 },
    )
    // Thousands of queue calls per run: on a machine shared by several test runs this takes longer.
  }, 180_000)
})
