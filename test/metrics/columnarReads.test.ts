import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { activeTimeInRange } from '../../src/main/labels/activeTime'
import { type LabelPass, loadLabelColumns, loadLabelRows } from '../../src/main/labels/columns'
import { storedGoldRows } from '../../src/main/labels/gold'
import { LabelWriter } from '../../src/main/labels/labels'
import { activeTimeOn } from '../../src/main/labels/projectReads'
import { labelledByTime, lastLabelTimes } from '../../src/main/labels/reads'
import { datasetAgreement } from '../../src/main/metrics/datasetAgreement'
import { narrowing } from '../../src/main/metrics/narrowing'
import { disagreements, labelNext } from '../../src/main/metrics/queries'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { buildLabelColumns } from '../../src/main/metrics/stats/labelColumns'
import { readTargetRows, targetRowsByRow } from '../../src/main/metrics/targetRows'
import { type Db, openWorkspace } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { ContentWriter } from '../../src/main/store/repos/content'
import { createDataset } from '../../src/main/store/repos/datasets'
import { deleteUnit, editUnit } from '../../src/main/units/edit'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

/**
 * The metrics' columnar reads (targets packed with their candidate, labels straight into
 * columns, active time summed in JavaScript) against the row-by-row reads they replace, on
 * random workspaces: two datasets whose ids interleave, edited and deleted units, controls,
 * labels cleared and outside the schema, seconds with fractions, stored gold.
 */

const op = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('label' as const),
      who: fc.constantFrom('ana', 'bob', 'cy'),
      target: fc.nat(40),
      v: fc.constantFrom<string | null>('true', 'false', 'not_clear', 'off-schema', null),
      seconds: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e4, noNaN: true }), fc.nat(600)),
      // Few distinct times, so targets tie on their latest label's time.
      day: fc.integer({ min: 1, max: 4 }),
    }),
  },
  fc.record({ kind: fc.constant('edit' as const), target: fc.nat(40) }),
  fc.record({ kind: fc.constant('delete' as const), target: fc.nat(40) }),
  fc.record({ kind: fc.constant('control' as const), target: fc.nat(40) }),
  fc.record({
    kind: fc.constant('gold' as const),
    target: fc.nat(40),
    v: fc.constantFrom('true', 'false', 'off-schema'),
  }),
  fc.record({
    kind: fc.constant('other' as const),
    variant: fc.constantFrom('answer', 'zeta', 'poor_answer'),
  }),
)

type Op = typeof op extends fc.Arbitrary<infer T> ? T : never

function workspace(ops: Op[]) {
  const fx = makeFixture(tmp(), { items: 3, variants: ['poor_answer', 'answer'], facts: 2 })
  const db = fx.db
  const other = createDataset(db, { name: 'other', labelSchema: FAAF_SCHEMA }).id
  const content = new ContentWriter(db)
  const writer = new LabelWriter(db)
  const allTargets = () => db.prepare('SELECT id FROM targets ORDER BY id').pluck().all() as number[]
  const pick = (n: number) => {
    const all = allTargets()
    return all[n % all.length]!
  }
  for (const o of ops) {
    try {
      if (o.kind === 'label') {
        const a = ensureAnnotator(db, o.who).id
        // Written as stored rows: a verdict outside the schema is what an edited schema leaves.
        writer.save({
          targetId: pick(o.target),
          annotatorId: a,
          verdict: o.v === 'off-schema' ? 'true' : o.v,
        })
        db.prepare(
          'UPDATE labels SET verdict = ?, seconds = ?, updated_at = ? WHERE target_id = ? AND annotator_id = ?',
        ).run(o.v, o.seconds, `2026-01-0${o.day}T10:00:00.000Z`, pick(o.target), a)
      } else if (o.kind === 'edit') {
        const unit = db
          .prepare('SELECT unit_id FROM targets WHERE id = ?')
          .pluck()
          .get(pick(o.target)) as number
        editUnit(db, unit, `edited ${o.target}`)
      } else if (o.kind === 'delete') {
        const unit = db
          .prepare('SELECT unit_id FROM targets WHERE id = ?')
          .pluck()
          .get(pick(o.target)) as number
        deleteUnit(db, unit)
      } else if (o.kind === 'control') {
        const t = pick(o.target)
        db.prepare(
          `INSERT OR IGNORE INTO controls (target_id, dataset_id, verdict, source, created_at)
           SELECT id, dataset_id, 'true', 'gold', '2026-01-01' FROM targets WHERE id = ?`,
        ).run(t)
      } else if (o.kind === 'gold') {
        db.prepare(
          `INSERT OR REPLACE INTO gold (target_id, verdict, source, updated_at) VALUES (?, ?, 'import', '2026-01-01')`,
        ).run(pick(o.target), o.v)
      } else {
        // Another dataset's item, so the two datasets' target ids interleave.
        const n = db.prepare('SELECT COUNT(*) FROM items').pluck().get() as number
        const item = content.insertItem(other, { extId: `o${n}`, question: 'Q?', reference: 'R.' }, n)
        content.insertCandidate(item, { variant: o.variant, text: 'C.' })
        content.insertUnit(item, { kind: 'fact', text: 'F.' })
      }
    } catch {
      // A change the app refuses changes nothing.
    }
  }
  return { fx, db, datasets: [fx.datasetId, other] }
}

describe('columnar reads of the metrics', () => {
  it('read the same targets, labels and active time as row by row', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 50 }), (ops) => {
        const { db, datasets } = workspace(ops)
        for (const datasetId of datasets)
          for (const controls of [false, true]) {
            expect(storedGoldRows(db, datasetId)).toEqual(
              db
                .prepare(
                  `SELECT g.target_id, g.verdict FROM gold g JOIN targets t ON t.id = g.target_id
                   WHERE t.dataset_id = ? ORDER BY g.target_id`,
                )
                .raw()
                .all(datasetId),
            )
            const t = readTargetRows(db, datasetId, controls)
            expect(t).toEqual(targetRowsByRow(db, datasetId, controls))
            const n = t.ids.length
            if (n === 0) continue
            const lo = t.ids[0]!
            const hi = t.ids[n - 1]!
            const indexOf = new Int32Array(hi + 1).fill(-1)
            for (let i = 0; i < n; i++) indexOf[t.ids[i]!] = i
            const labels = [...FAAF_SCHEMA.values]
            let pass: LabelPass | null = null
            const columns = loadLabelColumns(db, datasetId, labels, lo, hi, indexOf, n, (p) => {
              pass = p
            })
            expect(columns).toEqual(
              buildLabelColumns(n, loadLabelRows(db, datasetId, labels, lo, hi), indexOf, labels),
            )
            // To the last bit (toEqual compares numbers with Object.is), with the label pass
            // reused and read afresh.
            const sql = activeTimeOn(db, t.ids)
            expect(pass).not.toBeNull()
            expect(activeTimeInRange(db, lo, hi, indexOf, pass)).toEqual(sql)
            expect(activeTimeInRange(db, lo, hi, indexOf)).toEqual(sql)
            const byTime = lastLabelTimes(db, lo, hi).sort((a, b) =>
              a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[0] - b[0],
            )
            expect(labelledByTime(db, lo, hi)).toEqual(byTime.map(([id]) => id))
          }
        db.close()
      }),
      { numRuns: 40 },
    )
  })

  it('sum seconds as SQLite does, where a plain running sum would differ', () => {
    const fx = makeFixture(tmp(), { items: 4, variants: ['answer'], facts: 1 })
    const a = ensureAnnotator(fx.db, 'ana').id
    // 1e16 swallows a following 1 in a plain sum; the compensated sum keeps it.
    const seconds = [1e16, 1, 1, -1e16]
    for (const [i, s] of seconds.entries()) {
      fx.label('ana', i, 'true')
      fx.db.prepare('UPDATE labels SET seconds = ? WHERE target_id = ?').run(s, fx.targets[i]!.id)
    }
    const ids = Int32Array.from(fx.targets.map((t) => t.id))
    const indexOf = new Int32Array(ids[ids.length - 1]! + 1).fill(-1)
    ids.forEach((id, i) => {
      indexOf[id] = i
    })
    const sql = activeTimeOn(fx.db, ids).get(a)!
    expect(sql.seconds).toBe(2)
    expect(activeTimeInRange(fx.db, ids[0]!, ids[ids.length - 1]!, indexOf)!.get(a)).toEqual(sql)
    fx.db.close()
  })
})

const change = fc.oneof(
  { weight: 4, arbitrary: op },
  fc.record({
    kind: fc.constant('run' as const),
    verdicts: fc.array(fc.constantFrom('true', 'false'), { minLength: 12, maxLength: 12 }),
  }),
)

describe('the Agreement and Compare views reopened', () => {
  it('serve what a new process computes, after every change', () => {
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 10 }), (changes) => {
        const fx = makeFixture(tmp(), { items: 3, variants: ['poor_answer', 'answer'], facts: 2 })
        const db = fx.db
        fx.labelAll(
          'ana',
          fx.targets.map((_, i) => (i % 4 === 0 ? 'false' : 'true')),
        )
        fx.run(
          'm1',
          fx.targets.map((_, i) => (i % 3 === 0 ? 'false' : 'true')),
        )
        const views = (on: Db) => ({
          metrics: computeDatasetMetrics(on, fx.datasetId, { replicates: 50 }),
          agreement: datasetAgreement(on, fx.datasetId),
          disagreements: disagreements(on, fx.datasetId, { limit: 5 }),
          labelNext: labelNext(on, fx.datasetId, 5),
          narrowing: narrowing(on, fx.datasetId),
        })
        views(db)
        for (const c of changes) {
          if (c.kind === 'run') fx.run('m2', c.verdicts)
          else if (c.kind === 'label') {
            const all = db.prepare('SELECT id FROM targets ORDER BY id').pluck().all() as number[]
            new LabelWriter(db).save({
              targetId: all[c.target % all.length]!,
              annotatorId: ensureAnnotator(db, c.who).id,
              verdict: c.v === 'off-schema' ? 'true' : c.v,
            })
          } else continue
          // The app's connection reuses what it computed while nothing changed; a second
          // connection to the same file computes everything anew.
          const fresh = openWorkspace(db.name, { skipQuickCheck: true })
          try {
            expect(views(db)).toEqual(views(fresh))
          } finally {
            fresh.close()
          }
        }
        db.close()
      }),
      { numRuns: 15 },
    )
  })
})
