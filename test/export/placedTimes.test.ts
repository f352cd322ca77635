import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { LabelTable, loadLabelTable, notePlacedTimes } from '../../src/main/export/labelTable'
import { targetIdRange } from '../../src/main/export/targetColumns'
import { createHiddenDataset, discardDataset } from '../../src/main/import/hidden'
import { sharedLabelTimes } from '../../src/main/labels/reads'
import type { Db } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { deleteUnit, editUnit, mergeUnits } from '../../src/main/units/edit'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

/**
 * The reading the export used before: each time with its target and annotator, found in the
 * table by binary search. The times read alone must land on the same labels.
 */
function keyedTimes(
  db: Db,
  table: LabelTable,
  datasetId: number,
  lo: number,
  hi: number,
): (string | undefined)[] {
  const out: (string | undefined)[] = new Array(table.size).fill(undefined)
  for (const [t, a, at] of sharedLabelTimes(db, datasetId, lo, hi)) {
    let k = table.first(t)
    while (k < table.size && table.target[k] === t && table.annotator[k]! < a) k++
    if (k < table.size && table.target[k] === t && table.annotator[k] === a) out[k] = at
  }
  return out
}

const placedOf = (table: LabelTable) => Array.from({ length: table.size }, (_, k) => table.placed(k))

/** The table without label `drop`: the label blocks and the rows disagreeing, as a stale cache would. */
function without(table: LabelTable, drop: number): LabelTable {
  const out = new LabelTable()
  for (let k = 0; k < table.size; k++)
    if (k !== drop)
      out.push(
        table.target[k]!,
        table.annotator[k]!,
        table.verdict[k]!,
        table.seconds[k]!,
        Number.isNaN(table.guidelines[k]!) ? null : table.guidelines[k]!,
        null,
        null,
      )
  out.verdicts.push(...table.verdicts)
  return out
}

const Step = fc.oneof(
  fc.record({
    op: fc.constant('label' as const),
    target: fc.nat(),
    who: fc.nat(3),
    verdict: fc.constantFrom('true', 'false', 'not_clear', null),
  }),
  fc.record({ op: fc.constantFrom('edit' as const, 'delete' as const, 'merge' as const), unit: fc.nat() }),
)

const Plan = fc.record({
  items: fc.integer({ min: 1, max: 4 }),
  variants: fc.integer({ min: 1, max: 2 }),
  facts: fc.integer({ min: 1, max: 3 }),
  // An import's items between the dataset's: its targets' ids fall among the dataset's.
  imported: fc.boolean(),
  withdrawn: fc.boolean(),
  steps: fc.array(Step, { minLength: 1, maxLength: 40 }),
  chunk: fc.integer({ min: 1, max: 8 }),
})

describe('when each label was placed, read as a column of times', () => {
  it('puts every time on the label the keyed reading puts it on, across edits, deletes, merges and withdrawn imports', () => {
    fc.assert(
      fc.property(Plan, (plan) => {
        const dir = tmp()
        const ws = Workspace.open(freshWorkspaceFile(join(dir, 'w.factlab')))
        try {
          const db = ws.db
          const ds = createDataset(db, { name: 'plan', labelSchema: FAAF_SCHEMA }).id
          const other = plan.imported
            ? createHiddenDataset(db, { name: 'import', labelSchema: FAAF_SCHEMA })
            : null
          const people = ['Ann', 'Ben', 'Cy', 'Di'].map((n) => ensureAnnotator(db, n).id)
          const units: number[] = []
          const otherTargets: number[] = []
          for (let i = 0; i < plan.items; i++) {
            for (const [dataset, list] of [
              [ds, units],
              [other, null],
            ] as const) {
              if (dataset === null) continue
              const item = ws.content.insertItem(
                dataset,
                { extId: `item-${i}`, question: null, reference: `R${i}` },
                i,
              )
              const cands = Array.from({ length: plan.variants }, (_, v) =>
                ws.content.insertCandidate(item, { variant: `v${v}`, text: `C${v} of ${i}` }),
              )
              for (let f = 0; f < plan.facts; f++) {
                const u = ws.content.insertUnit(item, { kind: 'fact', text: `Fact ${f} of ${i}` })
                list?.push(u)
                if (!list) for (const c of cands) otherTargets.push(ws.content.targetId(u, c)!)
              }
            }
          }
          const current = () =>
            db
              .prepare(
                `SELECT t.id FROM targets t JOIN units u ON u.id = t.unit_id
                 WHERE t.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL ORDER BY t.id`,
              )
              .pluck()
              .all(ds) as number[]
          const live = () =>
            db
              .prepare(
                `SELECT u.id FROM units u JOIN items i ON i.id = u.item_id
                 WHERE i.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL ORDER BY u.id`,
              )
              .pluck()
              .all(ds) as number[]
          for (const [k, t] of otherTargets.entries())
            ws.labels.save({ targetId: t, annotatorId: people[k % people.length]!, verdict: 'true' })
          for (const step of plan.steps) {
            if (step.op === 'label') {
              const targets = current()
              if (targets.length === 0) continue
              ws.labels.save({
                targetId: targets[step.target % targets.length]!,
                annotatorId: people[step.who]!,
                verdict: step.verdict,
              })
              continue
            }
            const us = live()
            if (us.length === 0) continue
            const u = us[step.unit % us.length]!
            if (step.op === 'edit') editUnit(db, u, `edited ${u}`)
            else if (step.op === 'delete') deleteUnit(db, u)
            else if (us.length > 1) {
              // Two units of one item only.
              const item = db.prepare('SELECT item_id FROM units WHERE id = ?').pluck().get(u)
              const mate = us.find(
                (x) =>
                  x !== u && db.prepare('SELECT item_id FROM units WHERE id = ?').pluck().get(x) === item,
              )
              if (mate !== undefined) mergeUnits(db, [u, mate])
            }
          }
          if (other !== null && plan.withdrawn) discardDataset(db, other)
          // Every label its own time, some not in the ISO form the app writes, so a time put on
          // another label shows.
          db.prepare(
            "UPDATE labels SET created_at = CASE id % 3 WHEN 0 THEN '2026-01-0' || (id % 9 + 1) || ' #' || id ELSE strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || id || ' seconds') END",
          ).run()
          const [lo, hi] = targetIdRange(db, ds)
          const table = loadLabelTable(db, lo, hi, FAAF_SCHEMA.values)
          notePlacedTimes(db, table, ds, lo, hi, plan.chunk)
          expect(placedOf(table)).toEqual(keyedTimes(db, table, ds, lo, hi))
          // A table that has lost one of the labels (a stale block) takes the keyed reading.
          if (table.size > 0) {
            const stale = without(table, plan.steps.length % table.size)
            notePlacedTimes(db, stale, ds, lo, hi, plan.chunk)
            expect(placedOf(stale)).toEqual(keyedTimes(db, stale, ds, lo, hi))
          }
        } finally {
          ws.close()
        }
      }),
      { numRuns: 40 },
    )
  })
})
