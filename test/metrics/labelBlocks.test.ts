import { join } from 'node:path'
import Database from 'better-sqlite3'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { StoredExtra } from '../../src/main/labels/blockExtras'
import {
  BLOCK_SIZE,
  type HandedBlocks,
  readLabelBlocks,
  type StoredBlock,
} from '../../src/main/labels/blocks'
import { labelDeleters } from '../../src/main/labels/discard'
import { LabelWriter } from '../../src/main/labels/labels'
import { datasetAgreement } from '../../src/main/metrics/datasetAgreement'
import { narrowing } from '../../src/main/metrics/narrowing'
import { disagreements, labelNext } from '../../src/main/metrics/queries'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { readTargetRows, targetRowsByRow } from '../../src/main/metrics/targetRows'
import type { Db } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { ContentWriter } from '../../src/main/store/repos/content'
import { createDataset } from '../../src/main/store/repos/datasets'
import { deleteUnit, editUnit } from '../../src/main/units/edit'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

/**
 * The label and target blocks (migration 0160) are caches of the labels and targets: after any sequence of saves,
 * clears, undos, merges, direct edits, deletes and withdrawn imports, with the views read in
 * between (which stores blocks that later writes must drop), they hold exactly the label rows,
 * and every figure of the Agreement and Compare views is what reading the rows gives, to the
 * last digit. Target ids jump past block boundaries, and another dataset's targets interleave.
 */

const TIMES = [
  '2026-01-01T10:00:00.000Z',
  '2026-01-02T10:00:00.000Z',
  '2026-01-02T10:00:00.001Z',
  '2026-01-03T09:59:59.999Z',
  // Forms the app does not write (a hand-edited bundle): the blocks then keep no time column.
  '2026-01-02',
  '2026-01-02 10:00:00',
]

const op = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('save' as const),
      who: fc.constantFrom('ana', 'bob', 'cy'),
      target: fc.nat(60),
      v: fc.constantFrom<string | null>('true', 'false', 'not_clear', null),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      target: fc.nat(60),
      v: fc.constantFrom<string | null>('true', 'false', 'off-schema', null),
      seconds: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e4, noNaN: true }), fc.nat(600)),
      time: fc.nat(TIMES.length - 1),
      canonical: fc.boolean(),
    }),
  },
  fc.record({ kind: fc.constant('undo' as const), target: fc.nat(60) }),
  fc.record({ kind: fc.constant('merge' as const), who: fc.constantFrom('ana', 'dee'), target: fc.nat(60) }),
  fc.record({ kind: fc.constant('delete' as const), target: fc.nat(60) }),
  fc.record({ kind: fc.constant('withdraw' as const), target: fc.nat(60) }),
  fc.record({ kind: fc.constant('editUnit' as const), target: fc.nat(60) }),
  fc.record({ kind: fc.constant('deleteUnit' as const), target: fc.nat(60) }),
  fc.record({ kind: fc.constant('control' as const), target: fc.nat(60), drop: fc.boolean() }),
  fc.record({ kind: fc.constant('jump' as const), by: fc.integer({ min: 1, max: 2 * BLOCK_SIZE }) }),
  fc.record({ kind: fc.constant('look' as const) }),
)

/** The rows the blocks cache, straight from `labels`. */
function labelRows(db: Db, lo: number, hi: number) {
  return db
    .prepare(
      `SELECT target_id, annotator_id, verdict, seconds, updated_at FROM labels
       WHERE target_id BETWEEN ? AND ? AND verdict IS NOT NULL ORDER BY target_id, annotator_id`,
    )
    .raw()
    .all(lo, hi) as [number, number, string, number, string][]
}

function blockRows(db: Db, lo: number, hi: number, handed?: HandedBlocks) {
  const b = readLabelBlocks(db, lo, hi, handed)!
  const time = b.time
  return Array.from(b.target, (t, p) => [
    t,
    b.annotator[p]!,
    b.verdicts[b.verdict[p]!]!,
    b.seconds[p]!,
    ...(handed && time ? [time[p]!] : []),
  ])
}

/**
 * The stored blocks as another connection reads them (a worker thread's), every other one left
 * out, with the extras of every other one of those (the rest are read from the table).
 */
function handedOver(db: Db, drop: number): HandedBlocks {
  const rows = db
    .prepare('SELECT block, dict, data FROM label_blocks ORDER BY block')
    .raw()
    .all() as StoredBlock[]
  const extras = db
    .prepare('SELECT block, stamp, data FROM label_block_extras ORDER BY block')
    .raw()
    .all() as StoredExtra[]
  return {
    rows: rows.filter((_, i) => (i + drop) % 2 !== 0),
    extras: () => extras.filter((_, i) => (i + drop) % 4 < 2),
  }
}

const views = (on: Db, datasetId: number) => ({
  metrics: computeDatasetMetrics(on, datasetId, { replicates: 50 }),
  agreement: datasetAgreement(on, datasetId),
  disagreements: disagreements(on, datasetId, { limit: 5 }),
  labelNext: labelNext(on, datasetId, 5),
  narrowing: narrowing(on, datasetId),
})

/** A copy of the workspace; `withoutBlocks` drops the table, so every read takes the rows. */
function copy(db: Db, withoutBlocks: boolean): Db {
  const file = join(tmp(), 'copy.factlab')
  db.prepare('VACUUM INTO ?').run(file)
  const c = new Database(file) as Db
  if (withoutBlocks) c.exec('DROP TABLE label_blocks; DROP TABLE target_blocks')
  return c
}

describe('label blocks', () => {
  it('hold exactly the label rows, and the views give the figures the rows give', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
        const fx = makeFixture(tmp(), { items: 3, variants: ['poor_answer', 'answer'], facts: 2 })
        const db = fx.db
        const other = createDataset(db, { name: 'other', labelSchema: FAAF_SCHEMA }).id
        const content = new ContentWriter(db)
        const writer = new LabelWriter(db)
        const previous = new Map<string, string | null>()
        const targets = () => db.prepare('SELECT id FROM targets ORDER BY id').pluck().all() as number[]
        const pick = (n: number) => {
          const all = targets()
          return all[n % all.length]!
        }
        const save = (targetId: number, who: string, verdict: string | null, action?: 'merge') => {
          const annotatorId = ensureAnnotator(db, who).id
          const key = `${targetId}:${annotatorId}`
          const before = db
            .prepare('SELECT verdict FROM labels WHERE target_id = ? AND annotator_id = ?')
            .pluck()
            .get(targetId, annotatorId) as string | null | undefined
          previous.set(key, before ?? null)
          if (action === 'merge')
            writer.save({ targetId, annotatorId, verdict }, 'merge', '2026-01-04T08:00:00.000Z', {
              at: '2026-01-05T08:00:00.000Z',
              from: 'laptop.bundle.jsonl',
            })
          else writer.save({ targetId, annotatorId, verdict })
        }
        for (const o of ops) {
          try {
            if (o.kind === 'save') save(pick(o.target), o.who, o.v)
            else if (o.kind === 'merge') save(pick(o.target), o.who, 'false', 'merge')
            else if (o.kind === 'undo') {
              const row = db
                .prepare('SELECT target_id, annotator_id FROM labels ORDER BY target_id, annotator_id')
                .raw()
                .all() as [number, number][]
              if (row.length === 0) continue
              const [t, a] = row[o.target % row.length]!
              const name = db.prepare('SELECT name FROM annotators WHERE id = ?').pluck().get(a) as string
              save(t, name, previous.get(`${t}:${a}`) ?? null)
            } else if (o.kind === 'edit') {
              // Stored rows as an edited schema or a hand-made file leaves them.
              db.prepare(
                `UPDATE labels SET verdict = ?, seconds = ?, updated_at = ?
                 WHERE id = (SELECT id FROM labels ORDER BY id LIMIT 1 OFFSET ?)`,
              ).run(
                o.v,
                o.seconds,
                TIMES[o.canonical ? o.time % 4 : o.time]!,
                o.target % Math.max(1, db.prepare('SELECT COUNT(*) FROM labels').pluck().get() as number),
              )
            } else if (o.kind === 'delete') {
              db.prepare(
                'DELETE FROM labels WHERE id = (SELECT id FROM labels ORDER BY id LIMIT 1 OFFSET ?)',
              ).run(o.target % Math.max(1, db.prepare('SELECT COUNT(*) FROM labels').pluck().get() as number))
            } else if (o.kind === 'withdraw') {
              for (const s of labelDeleters(db, 'SELECT ?')) s.run(pick(o.target))
            } else if (o.kind === 'editUnit') {
              const unit = db
                .prepare('SELECT unit_id FROM targets WHERE id = ?')
                .pluck()
                .get(pick(o.target)) as number
              editUnit(db, unit, `edited ${o.target}`)
            } else if (o.kind === 'deleteUnit') {
              const unit = db
                .prepare('SELECT unit_id FROM targets WHERE id = ?')
                .pluck()
                .get(pick(o.target)) as number
              deleteUnit(db, unit)
            } else if (o.kind === 'control') {
              const t = pick(o.target)
              if (o.drop) db.prepare('DELETE FROM controls WHERE target_id = ?').run(t)
              else
                db.prepare(
                  `INSERT OR IGNORE INTO controls (target_id, dataset_id, verdict, source, created_at)
                   SELECT id, dataset_id, 'true', 'gold', '2026-01-01' FROM targets WHERE id = ?`,
                ).run(t)
            } else if (o.kind === 'jump') {
              // Another dataset's target far ahead, so later targets (edits) land in other blocks.
              const n = db.prepare('SELECT COUNT(*) FROM items').pluck().get() as number
              const item = content.insertItem(other, { extId: `o${n}`, question: 'Q?', reference: 'R.' }, n)
              // Its variant one the dataset has, or one it has not, among the dataset's items.
              content.insertCandidate(item, { variant: o.by % 2 === 0 ? 'answer' : 'elsewhere', text: 'C.' })
              content.insertUnit(item, { kind: 'fact', text: 'F.' })
              const last = db.prepare('SELECT MAX(id) FROM targets').pluck().get() as number
              db.prepare('UPDATE targets SET id = ? WHERE id = ?').run(last + o.by, last)
              // And an item of the dataset itself after it: its targets span several blocks.
              const own = content.insertItem(
                fx.datasetId,
                { extId: `j${n}`, question: 'Q?', reference: 'R.' },
                n,
              )
              content.insertCandidate(own, { variant: 'answer', text: 'C.' })
              content.insertUnit(own, { kind: 'fact', text: 'F.' })
            } else views(db, fx.datasetId)
          } catch {
            // A change the app refuses changes nothing.
          }
        }
        const all = targets()
        const lo = all[0]!
        const hi = all[all.length - 1]!
        // Every range, stored blocks and blocks built afresh alike.
        for (const [a, b] of [
          [lo, hi],
          [lo + 1, hi - 1],
          [0, hi + BLOCK_SIZE],
        ] as const) {
          const rows = labelRows(db, a, b).map(([t, an, v, s]) => [t, an, v, s])
          expect(blockRows(db, a, b)).toEqual(rows)
          expect(blockRows(db, a, b)).toEqual(rows)
        }
        // Blocks handed over by another connection, some of them (or none) missing: the same
        // labels, seconds and times as the blocks read here.
        for (const drop of [0, 1])
          expect(blockRows(db, lo, hi, handedOver(db, drop))).toEqual(
            blockRows(db, lo, hi, { rows: [], extras: null }),
          )
        const blocks = readLabelBlocks(db, lo, hi)!
        const times = labelRows(db, lo, hi).map((r) => r[4])
        if (blocks.time) {
          expect(Array.from(blocks.time)).toEqual(times.map((t) => new Date(t).getTime()))
        } else expect(times.some((t) => !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(t))).toBe(true)
        // The targets the views read, from target blocks kept through the changes.
        for (const datasetId of [fx.datasetId, other])
          for (const controls of [false, true])
            expect(readTargetRows(db, datasetId, controls)).toEqual(targetRowsByRow(db, datasetId, controls))
        // The figures: blocks kept through the changes, blocks rebuilt, and no blocks at all.
        const rowsOnly = copy(db, true)
        const rebuilt = copy(db, false)
        rebuilt.exec('DELETE FROM label_blocks; DELETE FROM target_blocks')
        for (const datasetId of [fx.datasetId, other]) {
          const expected = views(rowsOnly, datasetId)
          expect(views(db, datasetId)).toEqual(expected)
          expect(views(rebuilt, datasetId)).toEqual(expected)
        }
        rowsOnly.close()
        rebuilt.close()
        db.close()
      }),
      { numRuns: 30 },
    )
  })

  it('see a control marked, a unit edited and a unit deleted after they were stored', () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer'], facts: 2 })
    const db = fx.db
    fx.label('ana', 0, 'true')
    const same = () => {
      for (const controls of [false, true])
        expect(readTargetRows(db, fx.datasetId, controls)).toEqual(
          targetRowsByRow(db, fx.datasetId, controls),
        )
    }
    same()
    expect(db.prepare('SELECT COUNT(*) FROM target_blocks').pluck().get()).toBe(1)
    db.prepare(
      `INSERT INTO controls (target_id, dataset_id, verdict, source, created_at) VALUES (?, ?, 'true', 'gold', '2026-01-01')`,
    ).run(fx.targets[1]!.id, fx.datasetId)
    same()
    const unitOf = (i: number) =>
      db.prepare('SELECT unit_id FROM targets WHERE id = ?').pluck().get(fx.targets[i]!.id) as number
    editUnit(db, unitOf(0), 'edited')
    same()
    deleteUnit(db, unitOf(2))
    same()
    db.prepare('DELETE FROM controls').run()
    same()
    db.close()
  })

  it('never lend a view the seconds of a block rebuilt after its labels were read', () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer'], facts: 2 })
    fx.label('ana', 0, 'true')
    const [lo, hi] = [fx.targets[0]!.id, fx.targets[fx.targets.length - 1]!.id]
    readLabelBlocks(fx.db, lo, hi)
    // Read as the Agreement view reads them: labels now, seconds and times only if asked.
    const read = readLabelBlocks(fx.db, lo, hi)!
    expect(read.target.length).toBe(1)
    // Another process saves a label in the block and a view there rebuilds it.
    const other = new Database(fx.db.name) as Db
    ensureAnnotator(other, 'bob')
    new LabelWriter(other).save({
      targetId: fx.targets[1]!.id,
      annotatorId: ensureAnnotator(other, 'bob').id,
      verdict: 'false',
      seconds: 9,
    })
    expect(readLabelBlocks(other, lo, hi)!.seconds.length).toBe(2)
    other.close()
    expect(() => read.seconds).toThrow(/labels changed while this view was being read/)
    // The next read has the new block, with its own seconds.
    expect(Array.from(readLabelBlocks(fx.db, lo, hi)!.seconds)).toHaveLength(2)
    fx.db.close()
  })

  it('are dropped by a label write and built again on the next read', () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer'], facts: 2 })
    fx.label('ana', 0, 'true')
    const [lo, hi] = [fx.targets[0]!.id, fx.targets[fx.targets.length - 1]!.id]
    const stored = () => fx.db.prepare('SELECT COUNT(*) FROM label_blocks').pluck().get()
    expect(stored()).toBe(0)
    expect(readLabelBlocks(fx.db, lo, hi)!.target.length).toBe(1)
    expect(stored()).toBe(1)
    fx.label('bob', 1, 'false')
    expect(stored()).toBe(0)
    const b = readLabelBlocks(fx.db, lo, hi)!
    expect(Array.from(b.target)).toEqual([fx.targets[0]!.id, fx.targets[1]!.id])
    expect(b.verdicts).toEqual(['true', 'false'])
    fx.db.close()
  })
})
