import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Workspace } from '../../src/main/app/workspace'
import { adjudicate } from '../../src/main/labels/adjudication'
import { datasetAgreement } from '../../src/main/metrics/datasetAgreement'
import { setControls } from '../../src/main/projects/controls'
import { projectDashboard } from '../../src/main/projects/dashboard'
import { readDashboardEarly } from '../../src/main/projects/dashboardInBackground'
import { dashboardLabelsKept } from '../../src/main/projects/dashboardLabels'
import { setPlan } from '../../src/main/projects/plan'
import type { Db } from '../../src/main/store/connection'
import { createDataset } from '../../src/main/store/repos/datasets'
import { deleteUnit, editUnit } from '../../src/main/units/edit'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { projectDashboard as dashboardBefore } from './oracle/dashboardBlocks'
import { seedProject } from './seed'

/*
 * The Project view's JSON is the same, byte for byte, as the computation it replaced (kept in
 * oracle/dashboardBlocks.ts), on random project workspaces: labels, clears, reference labels,
 * a verdict no longer in the schema, controls, edits, deletes, gold, under no plan, an open plan
 * and a fixed one (split again among other people, beside another dataset's assignments, item
 * ids of many digits), asked for again after further changes (a kept result must not outlive them).
 */

const tmp = tmpDirs()
const VERDICTS = ['true', 'false', 'not_clear'] as const

const step = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('label' as const),
      target: fc.nat(),
      who: fc.nat(4),
      verdict: fc.constantFrom(...VERDICTS),
      seconds: fc.oneof(
        fc.constant(0),
        fc.integer({ min: 1, max: 90 }),
        fc.double({ min: 0.1, max: 60, noNaN: true }),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('clear' as const), target: fc.nat(), who: fc.nat(4) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('source' as const),
      target: fc.nat(),
      verdict: fc.constantFrom(...VERDICTS),
    }),
  },
  // A label whose verdict the schema no longer has (a schema edited after labelling).
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('stale' as const), target: fc.nat(), who: fc.nat(4) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('control' as const), target: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edit' as const), target: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), target: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('gold' as const),
      target: fc.nat(),
      verdict: fc.constantFrom(...VERDICTS),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('look' as const) }) },
  // The Agreement view opened: its per-pair figures are kept, and the dashboard may show them.
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('agreement' as const) }) },
  // The plan changed: under a fixed policy, the items split again among other people.
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('replan' as const),
      from: fc.nat(3),
      size: fc.integer({ min: 1, max: 4 }),
      seed: fc.nat(99),
    }),
  },
)
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never

function workspace(policy: 'none' | 'open' | 'fixed', k: number, before: boolean) {
  // Another dataset first, its target numbered so that this one's start inside a block of
  // 4,096 target ids and end inside the next (the stored blocks are read in part).
  const otherFirst = (ws: Workspace) => {
    const other = createDataset(ws.db, { name: 'other', labelSchema: FAAF_SCHEMA })
    const item = ws.content.insertItem(other.id, { extId: 'o', question: 'O?', reference: 'O.' }, 0)
    const c = ws.content.insertCandidate(item, { variant: 'v0', text: 'O.' })
    const unit = ws.content.insertUnit(item, { kind: 'fact', text: 'O fact.' })
    ws.db.prepare('UPDATE targets SET id = 4090 WHERE id = ?').run(ws.content.targetId(unit, c)!)
    // A second item numbered past a million: this dataset's item ids follow it, so each
    // assignment read has many digits.
    ws.db
      .prepare(
        "INSERT INTO items (id, dataset_id, ext_id, position, reference) VALUES (1234567, ?, 'o2', 1, 'O2.')",
      )
      .run(other.id)
  }
  const { ws, ds, people } = seedProject(
    tmp(),
    { items: 4, variants: 3, facts: 2, annotators: 5 },
    'wiki',
    before ? otherFirst : undefined,
  )
  const db = ws.db
  const source = Number(
    db
      .prepare(
        "INSERT INTO annotators (name, kind, created_at) VALUES ('release', 'source', '2026-01-01T00:00:00.000Z')",
      )
      .run().lastInsertRowid,
  )
  if (policy !== 'none')
    setPlan(db, {
      datasetId: ds.id,
      k,
      policy,
      hourlyRate: 20,
      annotators: people.slice(0, 4).map((p, i) => ({ name: p.name, hourlyRate: i === 0 ? 35 : null })),
    })
  if (before) {
    // Another dataset's assignments in the same table: none of them is this one's.
    const other = db.prepare("SELECT id FROM datasets WHERE name = 'other'").pluck().get() as number
    setPlan(db, {
      datasetId: other,
      k: 1,
      policy: 'fixed',
      hourlyRate: null,
      annotators: people.slice(2, 5).map((p) => ({ name: p.name, hourlyRate: null })),
    })
  }
  return { ws, db, ds, people, source, policy, k }
}

function apply(db: Db, w: ReturnType<typeof workspace>, s: Step, binary: boolean): void {
  const current = db
    .prepare(
      `SELECT t.id FROM targets t JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL ORDER BY t.id`,
    )
    .pluck()
    .all(w.ds.id) as number[]
  if (s.kind === 'agreement') datasetAgreement(db, w.ds.id)
  if (s.kind === 'replan' && w.policy === 'fixed') {
    const people = w.people.slice(s.from, s.from + s.size)
    setPlan(db, {
      datasetId: w.ds.id,
      k: Math.min(w.k, people.length),
      policy: 'fixed',
      hourlyRate: 20,
      seed: s.seed,
      annotators: people.map((p) => ({ name: p.name, hourlyRate: null })),
    })
  }
  if (current.length === 0 || s.kind === 'look' || s.kind === 'agreement' || s.kind === 'replan') return
  // A third verdict would keep every run from the Agreement view's κ: the binary runs have none.
  if (s.kind === 'stale' && binary) return
  const t = current[s.target % current.length]!
  const unitOf = () => db.prepare('SELECT unit_id FROM targets WHERE id = ?').pluck().get(t) as number
  // Two verdicts in use, or three: the Agreement view's κ is the dashboard's to the bit only with two.
  const verdict = (v: string) => (binary && v === 'not_clear' ? 'false' : v)
  if (s.kind === 'label')
    w.ws.labels.save({
      targetId: t,
      annotatorId: w.people[s.who]!.id,
      verdict: verdict(s.verdict),
      seconds: s.seconds,
    })
  else if (s.kind === 'clear')
    w.ws.labels.save({ targetId: t, annotatorId: w.people[s.who]!.id, verdict: null })
  else if (s.kind === 'source' || s.kind === 'stale')
    db.prepare(
      `INSERT OR REPLACE INTO labels (target_id, annotator_id, verdict, created_at, updated_at, seconds)
       VALUES (?, ?, ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 3)`,
    ).run(
      t,
      s.kind === 'source' ? w.source : w.people[s.who]!.id,
      s.kind === 'source' ? verdict(s.verdict) : 'maybe',
    )
  else if (s.kind === 'control') {
    try {
      setControls(db, w.ds.id, { fromGold: [], answers: [{ targetId: t, verdict: 'true' }] }, 'now')
    } catch {
      // Refused (it disagrees with an adjudicated decision): the step changes nothing.
    }
  } else if (s.kind === 'edit') editUnit(db, unitOf(), `Reworded ${s.target}.`)
  else if (s.kind === 'delete') deleteUnit(db, unitOf())
  else {
    try {
      adjudicate(db, { targetId: t, verdict: verdict(s.verdict), adjudicatorId: w.people[4]!.id })
    } catch {
      // Refused (e.g. nothing to decide): the step changes nothing.
    }
  }
}

describe('the Project view after issue 11', () => {
  it('shows the same JSON, byte for byte, as the computation it replaced, after every kind of change', () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 50 }),
        fc.constantFrom('none' as const, 'open' as const, 'fixed' as const),
        fc.integer({ min: 1, max: 3 }),
        fc.boolean(),
        fc.boolean(),
        (steps, policy, k, before, binary) => {
          const w = workspace(policy, k, before)
          const now = new Date('2026-01-05T00:00:00.000Z')
          try {
            for (const s of steps) {
              apply(w.db, w, s, binary)
              // Asked for between changes too: what a kept result would wrongly repeat. After the
              // Agreement view, before anything else asks: its per-pair figures may be shown.
              if (s.kind === 'look' || s.kind === 'agreement' || s.kind === 'replan')
                expect(JSON.stringify(projectDashboard(w.db, w.ds.id, now))).toBe(
                  JSON.stringify(dashboardBefore(w.db, w.ds.id, now)),
                )
            }
            const after = JSON.stringify(dashboardBefore(w.db, w.ds.id, now))
            expect(JSON.stringify(projectDashboard(w.db, w.ds.id, now))).toBe(after)
            // Asked again with nothing changed: the same answer.
            expect(JSON.stringify(projectDashboard(w.db, w.ds.id, now))).toBe(after)
          } finally {
            w.ws.close()
          }
        },
      ),
      { numRuns: 40, endOnFailure: true },
    )
  })
})

describe('the Project view of a large dataset, its label blocks read on a second thread', () => {
  it('shows the same JSON as the computation it replaced, and reads again after a change', async () => {
    const w = workspace('fixed', 2, true)
    const now = new Date('2026-01-05T00:00:00.000Z')
    try {
      const steps: Step[] = Array.from({ length: 30 }, (_, i) => ({
        kind: 'label' as const,
        target: i * 7,
        who: i % 5,
        verdict: VERDICTS[i % 3]!,
        seconds: (i * 13) % 40,
      }))
      for (const s of steps) apply(w.db, w, s, false)
      // The stored blocks the worker reads exist after a first look.
      const before = JSON.stringify(dashboardBefore(w.db, w.ds.id, now))
      await readDashboardEarly(w.db, w.ds.id, 1)
      expect(dashboardLabelsKept(w.db, w.ds.id)).toBe(true)
      expect(JSON.stringify(projectDashboard(w.db, w.ds.id, now))).toBe(before)
      apply(w.db, w, { kind: 'label', target: 3, who: 1, verdict: 'false', seconds: 5 }, false)
      expect(dashboardLabelsKept(w.db, w.ds.id)).toBe(false)
      await readDashboardEarly(w.db, w.ds.id, 1)
      expect(JSON.stringify(projectDashboard(w.db, w.ds.id, now))).toBe(
        JSON.stringify(dashboardBefore(w.db, w.ds.id, now)),
      )
    } finally {
      w.ws.close()
    }
  })
})

describe('the Project view after the Agreement view', () => {
  it('shows each pair’s κ as it showed it before, taken from the Agreement view’s figures where they are the same', () => {
    const w = workspace('open', 2, false)
    const now = new Date('2026-01-05T00:00:00.000Z')
    try {
      // Three people on every target, two verdicts, disagreeing here and there.
      for (let i = 0; i < 24; i++)
        for (const who of [0, 1, 2])
          apply(
            w.db,
            w,
            {
              kind: 'label',
              target: i,
              who,
              verdict: (i * (who + 2)) % 5 < 2 ? 'false' : 'true',
              seconds: 2 + who,
            },
            true,
          )
      datasetAgreement(w.db, w.ds.id)
      const shown = projectDashboard(w.db, w.ds.id, now)
      expect(shown.pairwiseKappa.filter((p) => p.kappa !== null)).toHaveLength(3)
      expect(JSON.stringify(shown)).toBe(JSON.stringify(dashboardBefore(w.db, w.ds.id, now)))
    } finally {
      w.ws.close()
    }
  })
})
