import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { queryItems } from '../../src/main/annotate/datasets'
import { LabelWriter } from '../../src/main/labels/labels'
import { labelledBy } from '../../src/main/labels/sql'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { ContentWriter } from '../../src/main/store/repos/content'
import { createDataset } from '../../src/main/store/repos/datasets'
import { addUnit, deleteUnit, editUnit, mergeUnits, restoreUnit, splitUnit } from '../../src/main/units/edit'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from '../metrics/fixture'
import { candidateDoneFromRows, candidateDoneKept } from './candidateDone'

const tmp = tmpDirs()

const op = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('label' as const),
      who: fc.constantFrom('ana', 'bob'),
      target: fc.nat(3),
      v: fc.constantFrom<string | null>('true', 'false', null),
    }),
  },
  fc.record({ kind: fc.constant('edit' as const), target: fc.nat(3) }),
  fc.record({ kind: fc.constant('delete' as const), target: fc.nat(3) }),
  fc.record({ kind: fc.constant('restore' as const), target: fc.nat(3) }),
  fc.record({ kind: fc.constant('merge' as const), a: fc.nat(3), b: fc.nat(3) }),
  fc.record({ kind: fc.constant('split' as const), target: fc.nat(3) }),
  fc.record({ kind: fc.constant('add' as const), item: fc.nat(3) }),
  fc.record({ kind: fc.constant('newItem' as const) }),
  // A label row removed outright, as withdrawing an import or a bundle merge's undo does.
  fc.record({ kind: fc.constant('dropLabel' as const), n: fc.nat(20) }),
)

describe('"not yet labelled by me" from the kept finished items and candidates (migrations 0100, 0180)', () => {
  it('lists the same items, and the same count, as checking every target, for every variant too', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.constantFrom('ana', 'bob'), (ops, who) => {
        const fx = makeFixture(tmp(), { items: 2, variants: ['answer', 'poor_answer'], facts: 2 })
        const db = fx.db
        const me = ensureAnnotator(db, who)
        ensureAnnotator(db, 'ana')
        ensureAnnotator(db, 'bob')
        // Labels go to whatever targets are current now, so edits do not stop the labelling.
        const current = () =>
          db
            .prepare(
              `SELECT t.id FROM targets t JOIN units u ON u.id = t.unit_id
               WHERE u.superseded_by IS NULL AND u.deleted_at IS NULL ORDER BY t.id`,
            )
            .pluck()
            .all() as number[]
        const unitOf = (target: number) =>
          db.prepare('SELECT unit_id FROM targets WHERE id = ?').pluck().get(target) as number
        const anyTarget = (n: number) => {
          const all = db.prepare('SELECT id FROM targets ORDER BY id').pluck().all() as number[]
          return all[n % all.length]!
        }
        const page = (variant: string | null) =>
          queryItems(db, {
            datasetId: fx.datasetId,
            annotatorId: me.id,
            filter: { status: 'unlabelled', variant, search: '' },
            offset: 0,
            limit: 100,
          })
        // With a variant: the item has a candidate of it, and a current target of such a
        // candidate is not labelled by me.
        const reference = (variant: string | null) =>
          db
            .prepare(
              `SELECT i.id FROM items i WHERE i.dataset_id = @ds
                 AND (@variant IS NULL OR EXISTS (SELECT 1 FROM candidates c WHERE c.item_id = i.id AND c.variant = @variant))
                 AND EXISTS (SELECT 1 FROM targets t
                 JOIN units u ON u.id = t.unit_id JOIN candidates c ON c.id = t.candidate_id
                 WHERE t.item_id = i.id AND u.superseded_by IS NULL AND (@variant IS NULL OR c.variant = @variant)
                 AND u.deleted_at IS NULL AND NOT ${labelledBy('t.id', '@me')}) ORDER BY i.position`,
            )
            .pluck()
            .all({ ds: fx.datasetId, variant, me: me.id }) as number[]
        const items = db.prepare('SELECT id FROM items ORDER BY position').pluck().all() as number[]
        const writer = new LabelWriter(db)
        for (const o of ops) {
          try {
            if (o.kind === 'label') {
              const targets = current()
              const t = targets[o.target % targets.length]
              if (t !== undefined)
                writer.save({ targetId: t, annotatorId: ensureAnnotator(db, o.who).id, verdict: o.v })
            } else if (o.kind === 'edit') editUnit(db, unitOf(anyTarget(o.target)), `edited ${o.target}`)
            else if (o.kind === 'delete') deleteUnit(db, unitOf(anyTarget(o.target)))
            else if (o.kind === 'restore') restoreUnit(db, unitOf(anyTarget(o.target)))
            else if (o.kind === 'merge') mergeUnits(db, [unitOf(anyTarget(o.a)), unitOf(anyTarget(o.b))])
            else if (o.kind === 'split')
              splitUnit(db, unitOf(anyTarget(o.target)), ['one part.', 'other part.'])
            else if (o.kind === 'dropLabel') {
              const labels = db.prepare('SELECT id FROM labels ORDER BY id').pluck().all() as number[]
              if (labels.length)
                db.prepare('DELETE FROM labels WHERE id = ?').run(labels[o.n % labels.length])
            } else if (o.kind === 'add')
              addUnit(db, { itemId: items[o.item]!, kind: 'fact', text: `added to ${o.item}` })
            else {
              // An item with nothing to label yet; a later "add" may give it a unit.
              const id = new ContentWriter(db).insertItem(
                fx.datasetId,
                { extId: `new${items.length}`, question: 'Q?', reference: 'R.' },
                items.length,
              )
              items.push(id)
            }
          } catch {
            // A change the app refuses changes nothing.
          }
          for (const variant of [null, 'answer', 'poor_answer']) {
            const p = page(variant)
            const want = reference(variant)
            expect(p.rows.map((r) => r.itemId)).toEqual(want)
            expect(p.total).toBe(want.length)
          }
          // The finished candidates the triggers keep (migration 0180), against a rebuild.
          expect(candidateDoneKept(db)).toEqual(candidateDoneFromRows(db))
        }
        db.close()
      }),
      { numRuns: 20 },
    )
  })

  it('takes a candidate off the finished ones when one of its labels is removed or cleared', () => {
    const fx = makeFixture(tmp(), { items: 1, variants: ['answer', 'poor_answer'], facts: 2 })
    const db = fx.db
    const me = ensureAnnotator(db, 'ana')
    const answers = db
      .prepare(
        "SELECT t.id FROM targets t JOIN candidates c ON c.id = t.candidate_id WHERE c.variant = 'answer'",
      )
      .pluck()
      .all() as number[]
    const writer = new LabelWriter(db)
    for (const t of answers) writer.save({ targetId: t, annotatorId: me.id, verdict: 'true' })
    const unlabelled = (variant: string) =>
      queryItems(db, {
        datasetId: fx.datasetId,
        annotatorId: me.id,
        filter: { status: 'unlabelled', variant, search: '' },
        offset: 0,
        limit: 10,
      }).total
    expect([unlabelled('answer'), unlabelled('poor_answer')]).toEqual([0, 1])
    db.prepare('DELETE FROM labels WHERE target_id = ?').run(answers[0])
    expect([unlabelled('answer'), unlabelled('poor_answer')]).toEqual([1, 1])
    expect(candidateDoneKept(db)).toEqual(candidateDoneFromRows(db))
    // Labelled again, then one verdict cleared: a cleared label leaves the target to do.
    writer.save({ targetId: answers[0]!, annotatorId: me.id, verdict: 'false' })
    expect(unlabelled('answer')).toBe(0)
    writer.save({ targetId: answers[1]!, annotatorId: me.id, verdict: null })
    expect(unlabelled('answer')).toBe(1)
    expect(candidateDoneKept(db)).toEqual(candidateDoneFromRows(db))
    db.close()
  })

  it('fills an imported dataset in one pass when it turns ready', () => {
    const fx = makeFixture(tmp(), { items: 1, variants: ['answer'], facts: 1 })
    const db = fx.db
    const me = ensureAnnotator(db, 'ana')
    const ds = createDataset(db, { name: 'imported', labelSchema: FAAF_SCHEMA })
    db.prepare("UPDATE datasets SET state = 'importing' WHERE id = ?").run(ds.id)
    const w = new ContentWriter(db)
    const first = w.insertItem(ds.id, { extId: 'a', question: 'Q?', reference: 'R.' }, 0)
    w.insertCandidate(first, { variant: 'answer', text: 'A.' })
    w.insertUnit(first, { kind: 'fact', text: 'One fact.' })
    const empty = w.insertItem(ds.id, { extId: 'b', question: 'Q?', reference: 'R.' }, 1)
    const done = w.insertItem(ds.id, { extId: 'c', question: 'Q?', reference: 'R.' }, 2)
    w.insertCandidate(done, { variant: 'answer', text: 'A.' })
    w.insertUnit(done, { kind: 'fact', text: 'Another fact.' })
    const target = db.prepare('SELECT id FROM targets WHERE item_id = ?').pluck().get(done) as number
    new LabelWriter(db).save({ targetId: target, annotatorId: me.id, verdict: 'true' })
    db.prepare("UPDATE datasets SET state = 'ready' WHERE id = ?").run(ds.id)
    const page = queryItems(db, {
      datasetId: ds.id,
      annotatorId: me.id,
      filter: { status: 'unlabelled', variant: null, search: '' },
      offset: 0,
      limit: 10,
    })
    // Only the item with an unlabelled fact: the empty one has nothing, the last is done.
    expect(page.rows.map((r) => r.itemId)).toEqual([first])
    expect(page.total).toBe(1)
    expect(candidateDoneKept(db)).toEqual(candidateDoneFromRows(db))
    const answers = queryItems(db, {
      datasetId: ds.id,
      annotatorId: me.id,
      filter: { status: 'unlabelled', variant: 'answer', search: '' },
      offset: 0,
      limit: 10,
    })
    expect(answers.rows.map((r) => r.itemId)).toEqual([first])
    expect(empty).not.toBe(first)
    db.close()
  })
})
