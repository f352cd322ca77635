import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { labelsPastK, labelsPastKOf } from '../../src/main/labels/projectReads'
import { accuracyOf, controlAccuracy, setControls } from '../../src/main/projects/controls'
import { projectDashboard } from '../../src/main/projects/dashboard'
import { dashboardLabels } from '../../src/main/projects/dashboardLabels'
import { getPlan, setPlan } from '../../src/main/projects/plan'
import type { Db } from '../../src/main/store/connection'
import { deleteUnit, editUnit } from '../../src/main/units/edit'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from './seed'

/*
 * Figures the Project view now takes from its one pass, against the queries they replaced, on
 * random plans, labels placed at shuffled and tied times, clears, reference labels, controls
 * (with an answer, or none known as a package brings them), edits and deletes:
 * - "labels past k" (the targets the pass found with more than k people's labels, ranked in
 *   migration 0610's index order) against the window sort over the label rows (`labelsPastK`);
 * - each person's control answers and accuracy against `controlAccuracy`'s query.
 */

const tmp = tmpDirs()
// Few distinct times, so ties (broken by the label's id) are common, and often out of id order.
const TIMES = ['2026-01-01T09:00:00.000Z', '2026-01-01T10:00:00.000Z', '2026-01-02T08:00:00.000Z']

const step = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('label' as const),
      // A few targets, so that many hold more than k people's labels.
      target: fc.nat(4),
      who: fc.nat(5),
      verdict: fc.constantFrom('true', 'false', null),
      time: fc.nat(TIMES.length - 1),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('source' as const), target: fc.nat(), time: fc.nat(2) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('control' as const),
      // On the targets people label, which edits and deletes then take out of the work.
      target: fc.nat(4),
      answer: fc.constantFrom('true', 'false', ''),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edit' as const), target: fc.nat(6) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), target: fc.nat(6) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('look' as const) }) },
)
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never

function apply(w: ReturnType<typeof seedProject> & { source: number }, s: Step): void {
  const db = w.ws.db
  const current = db
    .prepare(
      `SELECT t.id FROM targets t JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL ORDER BY t.id`,
    )
    .pluck()
    .all(w.ds.id) as number[]
  if (current.length === 0 || s.kind === 'look') return
  const t = current[s.target % current.length]!
  const unitOf = () => db.prepare('SELECT unit_id FROM targets WHERE id = ?').pluck().get(t) as number
  if (s.kind === 'label') {
    const annotatorId = w.people[s.who]!.id
    w.ws.labels.save({ targetId: t, annotatorId, verdict: s.verdict, seconds: 2 })
    // When it was first placed, as a merged bundle or a returned package may bring it.
    db.prepare('UPDATE labels SET created_at = ? WHERE target_id = ? AND annotator_id = ?').run(
      TIMES[s.time],
      t,
      annotatorId,
    )
  } else if (s.kind === 'source')
    db.prepare(
      `INSERT OR REPLACE INTO labels (target_id, annotator_id, verdict, created_at, updated_at, seconds)
       VALUES (?, ?, 'true', ?, ?, 0)`,
    ).run(t, w.source, TIMES[s.time], TIMES[s.time])
  else if (s.kind === 'control') {
    try {
      setControls(
        db,
        w.ds.id,
        { fromGold: [], answers: [{ targetId: t, verdict: s.answer || 'true' }] },
        'now',
      )
      // A control whose answer is not known here (a package's): never scored.
      if (s.answer === '') db.prepare("UPDATE controls SET verdict = '' WHERE target_id = ?").run(t)
    } catch {
      // Refused (the last target to label would become a control): the step changes nothing.
    }
  } else if (s.kind === 'edit') editUnit(db, unitOf(), `Reworded ${s.target}.`)
  else deleteUnit(db, unitOf())
}

function bothPaths(db: Db, datasetId: number) {
  const plan = getPlan(db, datasetId)
  const labels = dashboardLabels(db, datasetId, plan)
  const sorted = <T>(m: Map<number, T>) => [...m].sort((a, b) => a[0] - b[0])
  return {
    now: { pastK: sorted(labels.pastK), controls: sorted(accuracyOf(labels.tally.controlAnswers)) },
    before: {
      pastK: sorted(labelsPastK(db, datasetId, plan.k)),
      controls: sorted(controlAccuracy(db, datasetId)),
    },
  }
}

function workspace(policy: 'open' | 'fixed', k: number) {
  const w = seedProject(tmp(), { items: 3, variants: 2, facts: 2, annotators: 6 })
  const source = Number(
    w.ws.db
      .prepare(
        "INSERT INTO annotators (name, kind, created_at) VALUES ('release', 'source', '2026-01-01T00:00:00.000Z')",
      )
      .run().lastInsertRowid,
  )
  setPlan(w.ws.db, {
    datasetId: w.ds.id,
    k,
    policy,
    annotators: w.people.slice(0, 4).map((p) => ({ name: p.name, hourlyRate: null })),
  })
  return { ...w, source }
}

describe('labels past k and control accuracy, from the pass', () => {
  it('count, per person, what the queries they replaced counted', () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 80 }),
        fc.constantFrom('open' as const, 'fixed' as const),
        fc.integer({ min: 1, max: 3 }),
        (steps, policy, k) => {
          const w = workspace(policy, k)
          try {
            for (const s of steps) {
              apply(w, s)
              if (s.kind === 'look') {
                const { now, before } = bothPaths(w.ws.db, w.ds.id)
                expect(now).toEqual(before)
              }
            }
            const { now, before } = bothPaths(w.ws.db, w.ds.id)
            expect(now).toEqual(before)
          } finally {
            w.ws.close()
          }
        },
      ),
      { numRuns: 60, endOnFailure: true },
    )
  })

  it('ranks by when a label was first placed, not by its id, and shows it as past k on the view', () => {
    const w = workspace('open', 1)
    try {
      const t = w.targets[0]!
      const [a, b, c] = w.people
      // b's label was saved first here but placed later (a merged bundle): a's is first, b's past k.
      w.ws.labels.save({ targetId: t, annotatorId: b!.id, verdict: 'true' })
      w.ws.labels.save({ targetId: t, annotatorId: a!.id, verdict: 'false' })
      w.ws.labels.save({ targetId: t, annotatorId: c!.id, verdict: 'true' })
      const at = w.ws.db.prepare('UPDATE labels SET created_at = ? WHERE target_id = ? AND annotator_id = ?')
      at.run(TIMES[1], t, b!.id)
      at.run(TIMES[0], t, a!.id)
      at.run(TIMES[1], t, c!.id)
      expect(labelsPastKOf(w.ws.db, [t], 1)).not.toBeNull()
      const shown = projectDashboard(w.ws.db, w.ds.id, new Date('2026-01-05T00:00:00.000Z'))
      const overK = Object.fromEntries(shown.annotators.map((p) => [p.name, p.overK]))
      expect(overK).toMatchObject({ [a!.name]: 0, [b!.name]: 1, [c!.name]: 1 })
    } finally {
      w.ws.close()
    }
  })
})
