import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { adjudicate } from '../../src/main/labels/adjudication'
import { setControls } from '../../src/main/projects/controls'
import { projectDashboard } from '../../src/main/projects/dashboard'
import { setPlan } from '../../src/main/projects/plan'
import { deleteUnit, editUnit } from '../../src/main/units/edit'
import type { Dashboard } from '../../src/shared/contract/projects'
import { tmpDirs } from '../helpers/tmp'
import { projectDashboard as dashboardFromRows } from './oracle/dashboardRows'
import { seedProject } from './seed'

const tmp = tmpDirs()
const VERDICTS = ['true', 'false', 'not_clear'] as const

/** κ is summed in another order by the one pass: equal to the last few bits, not bit for bit. */
function withoutKappas(d: Dashboard) {
  return {
    ...d,
    annotators: d.annotators.map(({ kappaWithGold, ...a }) => a),
    pairwiseKappa: d.pairwiseKappa.map(({ kappa, ...p }) => p),
  }
}

const step = fc.oneof(
  fc.record({
    kind: fc.constant('label' as const),
    target: fc.nat(),
    who: fc.nat(3),
    verdict: fc.constantFrom(...VERDICTS),
    seconds: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 90 })),
  }),
  fc.record({ kind: fc.constant('clear' as const), target: fc.nat(), who: fc.nat(3) }),
  fc.record({
    kind: fc.constant('source' as const),
    target: fc.nat(),
    verdict: fc.constantFrom(...VERDICTS),
  }),
  fc.record({ kind: fc.constant('control' as const), target: fc.nat() }),
  fc.record({ kind: fc.constant('edit' as const), target: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), target: fc.nat() }),
  fc.record({ kind: fc.constant('gold' as const), target: fc.nat(), verdict: fc.constantFrom(...VERDICTS) }),
)

describe('the dashboard read from the blocks', () => {
  it('shows every figure the row-by-row reading showed, after labels, clears, controls, edits, deletes, gold and a plan', () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 40 }),
        fc.constantFrom('none', 'open', 'fixed'),
        fc.integer({ min: 1, max: 3 }),
        (steps, policy, k) => {
          const { ws, ds, people } = seedProject(tmp(), { items: 3, variants: 2, facts: 2, annotators: 4 })
          const db = ws.db
          const source = Number(
            db
              .prepare(
                "INSERT INTO annotators (name, kind, created_at) VALUES ('release', 'source', '2026-01-01T00:00:00.000Z')",
              )
              .run().lastInsertRowid,
          )
          const lead = people[3]!
          const unitOf = (t: number) =>
            db.prepare('SELECT unit_id FROM targets WHERE id = ?').pluck().get(t) as number
          const current = () =>
            db
              .prepare(
                `SELECT t.id FROM targets t JOIN units u ON u.id = t.unit_id
                 WHERE t.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL ORDER BY t.id`,
              )
              .pluck()
              .all(ds.id) as number[]
          if (policy !== 'none')
            setPlan(db, {
              datasetId: ds.id,
              k,
              policy,
              annotators: people.slice(0, 3).map((p) => ({ name: p.name })),
            })
          for (const s of steps) {
            const live = current()
            if (live.length === 0) break
            const t = live[s.target % live.length]!
            if (s.kind === 'label')
              ws.labels.save({
                targetId: t,
                annotatorId: people[s.who]!.id,
                verdict: s.verdict,
                seconds: s.seconds,
              })
            else if (s.kind === 'clear')
              ws.labels.save({ targetId: t, annotatorId: people[s.who]!.id, verdict: null })
            else if (s.kind === 'source')
              db.prepare(
                `INSERT OR REPLACE INTO labels (target_id, annotator_id, verdict, created_at, updated_at)
                 VALUES (?, ?, ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
              ).run(t, source, s.verdict)
            else if (s.kind === 'control') {
              try {
                setControls(db, ds.id, { fromGold: [], answers: [{ targetId: t, verdict: 'true' }] }, 'now')
              } catch {
                // Refused (it disagrees with an adjudicated decision): the step changes nothing.
              }
            } else if (s.kind === 'edit') editUnit(db, unitOf(t), `Reworded ${s.target}.`)
            else if (s.kind === 'delete') deleteUnit(db, unitOf(t))
            else {
              try {
                adjudicate(db, { targetId: t, verdict: s.verdict, adjudicatorId: lead.id })
              } catch {
                // Refused (e.g. nothing to decide): the step changes nothing.
              }
            }
          }
          const now = new Date()
          const fast = projectDashboard(db, ds.id, now)
          const rows = dashboardFromRows(db, ds.id, now)
          expect(withoutKappas(fast)).toEqual(withoutKappas(rows))
          fast.annotators.forEach((a, i) => {
            const b = rows.annotators[i]!.kappaWithGold
            if (b === null) expect(a.kappaWithGold).toBeNull()
            else expect(a.kappaWithGold).toBeCloseTo(b, 12)
          })
          fast.pairwiseKappa.forEach((p, i) => {
            const b = rows.pairwiseKappa[i]!.kappa
            if (b === null) expect(p.kappa).toBeNull()
            else expect(p.kappa).toBeCloseTo(b, 12)
          })
          ws.close()
        },
      ),
      { numRuns: 12, endOnFailure: true },
    )
  })
})
