import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { queryItems } from '../../src/main/annotate/datasets'
import { labelDiffersFrom } from '../../src/main/labels/sql'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { deleteUnit, editUnit } from '../../src/main/units/edit'
import { okVerdictsOfDatasetRuns } from '../../src/main/verdicts/sql'
import { writeVerdictsMany } from '../../src/main/verdicts/write'
import { tmpDirs } from '../helpers/tmp'
import { bulkWrites, makeFixture } from '../metrics/fixture'

const tmp = tmpDirs()
const TARGETS = 12
const verdict = fc.constantFrom<string | null>('true', 'false', 'not_clear', 'NA', 'ERR', null)

const op = fc.oneof(
  fc.record({
    kind: fc.constant('verdict' as const),
    run: fc.nat(),
    target: fc.nat(TARGETS - 1),
    v: verdict,
  }),
  fc.record({ kind: fc.constant('dropVerdict' as const), run: fc.nat(), target: fc.nat(TARGETS - 1) }),
  // A batch run's pass: many verdicts in one bulk write (migration 0150), replacing some.
  fc.record({
    kind: fc.constant('bulk' as const),
    run: fc.nat(),
    verdicts: fc.array(fc.tuple(fc.nat(TARGETS - 1), verdict), { maxLength: TARGETS }),
  }),
  fc.record({
    kind: fc.constant('newRun' as const),
    verdicts: fc.array(verdict, { minLength: TARGETS, maxLength: TARGETS }),
  }),
  fc.record({ kind: fc.constant('dropRun' as const), run: fc.nat() }),
  {
    // Often, and on few targets, so labels are changed as well as given.
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('label' as const),
      who: fc.constantFrom('ana', 'bob'),
      target: fc.nat(3),
      v: fc.constantFrom<string | null>('true', 'false', 'not_clear', null),
    }),
  },
  fc.record({ kind: fc.constant('edit' as const), target: fc.nat(TARGETS - 1) }),
  fc.record({ kind: fc.constant('delete' as const), target: fc.nat(TARGETS - 1) }),
)

describe('"judges disagree" from the kept table (migration 0100)', () => {
  it('finds the same items as joining every verdict with every label', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 30 }),
        fc.constantFrom<string | null>(null, 'poor_answer'),
        (ops, variant) => {
          const fx = makeFixture(tmp(), { items: 3, variants: ['answer', 'poor_answer'], facts: 2 })
          const db = fx.db
          const runs = [
            fx.run(
              'm0',
              fx.targets.map((_, i) => (i % 2 === 0 ? 'true' : 'false')),
            ),
          ]
          const me = ensureAnnotator(db, 'ana')
          const runOf = (n: number) => runs[n % Math.max(1, runs.length)]
          const unitOf = (i: number) =>
            db.prepare('SELECT unit_id FROM targets WHERE id = ?').pluck().get(fx.targets[i]!.id) as number
          const items = () =>
            queryItems(db, {
              datasetId: fx.datasetId,
              annotatorId: me.id,
              filter: { status: 'judgeDisagreement', variant, search: '' },
              offset: 0,
              limit: 100,
            }).rows.map((r) => r.itemId)
          // The definition the filter had before the table: every ok verdict against every label.
          const reference = () =>
            db
              .prepare(
                `SELECT DISTINCT t.item_id FROM items i, (SELECT t.item_id, t.unit_id, t.candidate_id ${okVerdictsOfDatasetRuns('@ds')}
                   JOIN targets t ON t.id = v.target_id WHERE ${labelDiffersFrom('v.target_id', 'v.verdict')}) t
                 JOIN units u ON u.id = t.unit_id JOIN candidates c ON c.id = t.candidate_id
                 WHERE i.id = t.item_id AND u.superseded_by IS NULL AND u.deleted_at IS NULL
                   AND (@variant IS NULL OR c.variant = @variant) ORDER BY i.position`,
              )
              .pluck()
              .all({ ds: fx.datasetId, variant }) as number[]
          let bulkError: unknown = null
          const bulk = (run: number, verdicts: (typeof ops)[number] & { kind: 'bulk' }) => {
            try {
              writeVerdictsMany(db, run, bulkWrites(fx.targets, verdicts.verdicts))
            } catch (error) {
              bulkError = error
            }
          }
          for (const o of ops) {
            try {
              if (o.kind === 'verdict') {
                const run = runOf(o.run)
                if (run !== undefined && o.v !== null) {
                  const status = o.v === 'NA' ? 'na' : o.v === 'ERR' ? 'error' : 'ok'
                  db.prepare(
                    'INSERT OR REPLACE INTO verdicts (run_id, target_id, status, verdict) VALUES (?, ?, ?, ?)',
                  ).run(run, fx.targets[o.target]!.id, status, status === 'ok' ? o.v : null)
                }
              } else if (o.kind === 'bulk') {
                const run = runOf(o.run)
                // Never refused: a failure here fails the test rather than being taken for one.
                if (run !== undefined) bulk(run, o)
              } else if (o.kind === 'dropVerdict') {
                const run = runOf(o.run)
                if (run !== undefined)
                  db.prepare('DELETE FROM verdicts WHERE run_id = ? AND target_id = ?').run(
                    run,
                    fx.targets[o.target]!.id,
                  )
              } else if (o.kind === 'newRun') runs.push(fx.run(`m${runs.length}`, o.verdicts))
              else if (o.kind === 'dropRun') {
                const run = runOf(o.run)
                if (run !== undefined) {
                  db.prepare('DELETE FROM runs WHERE id = ?').run(run)
                  runs.splice(runs.indexOf(run), 1)
                }
              } else if (o.kind === 'label') fx.label(o.who, o.target, o.v as string)
              else if (o.kind === 'edit') editUnit(db, unitOf(o.target), `edited ${o.target}`)
              else deleteUnit(db, unitOf(o.target))
            } catch {
              // A change the app refuses (e.g. labelling a unit no longer current) changes nothing.
            }
            expect(bulkError).toBeNull()
            expect(items()).toEqual(reference())
            // Target by target too: an item can hide a stale target behind another one.
            expect(db.prepare('SELECT target_id FROM judge_disagreements ORDER BY 1').pluck().all()).toEqual(
              db
                .prepare(
                  `SELECT DISTINCT v.target_id ${okVerdictsOfDatasetRuns('@ds')}
                 WHERE ${labelDiffersFrom('v.target_id', 'v.verdict')} ORDER BY 1`,
                )
                .pluck()
                .all({ ds: fx.datasetId }),
            )
          }
          db.close()
        },
      ),
      { numRuns: 20 },
    )
  })
})
