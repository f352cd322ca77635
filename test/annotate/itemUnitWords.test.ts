import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { queryItems } from '../../src/main/annotate/datasets'
import { asIndexed, ftsQuery, MAX_TERMS, matchingItems } from '../../src/main/annotate/search'
import { wordsContaining } from '../../src/main/annotate/vocabulary'
import { ChunkWriter } from '../../src/main/import/chunks'
import { createHiddenDataset, discardDataset, publishDataset } from '../../src/main/import/hidden'
import { LabelWriter } from '../../src/main/labels/labels'
import type { Db } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { ContentWriter } from '../../src/main/store/repos/content'
import { addUnit, deleteUnit, editUnit, mergeUnits, restoreUnit, splitUnit } from '../../src/main/units/edit'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from '../metrics/fixture'

const tmp = tmpDirs()

const WORDS = ['river', 'rivers', 'deriver', 'orchard', 'of', 'or', 'fact', 'café', 'lava'] as const
const SEARCHES = [
  'river',
  'riv',
  'of',
  'or',
  'fact',
  'cafe',
  'rch',
  'lava',
  'zzz',
  'river orchard',
  'of fact',
]

const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '))

const op = fc.oneof(
  // A labelled unit is kept as history when edited: its item gets a new unit, the old one is superseded.
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('label' as const), target: fc.nat(40) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('add' as const), item: fc.nat(9), text }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('edit' as const), unit: fc.nat(40), text }) },
  fc.record({ kind: fc.constant('delete' as const), unit: fc.nat(40) }),
  fc.record({ kind: fc.constant('restore' as const), unit: fc.nat(40) }),
  fc.record({ kind: fc.constant('merge' as const), a: fc.nat(40), b: fc.nat(40) }),
  fc.record({ kind: fc.constant('split' as const), unit: fc.nat(40), a: text, b: text }),
  fc.record({ kind: fc.constant('newItem' as const), question: text, unit: fc.option(text) }),
  fc.record({ kind: fc.constant('dropItem' as const), item: fc.nat(9) }),
  // An import in two chunks, the second adding a unit to an item of the first; then kept or withdrawn.
  fc.record({ kind: fc.constant('import' as const), a: text, b: text, c: text, keep: fc.boolean() }),
)

const tokens = (s: string): string[] => asIndexed(s).match(/[\p{L}\p{N}]+/gu) ?? []
/** The search rules spelled out: a short word is a whole word; a longer one any word holding it. */
const holds = (s: string, word: string) =>
  tokens(s).some((t) => (word.length < 3 ? t === word : t.includes(asIndexed(word))))

/**
 * The items of a dataset a search finds, from the rows: every typed word in one text (the
 * item's id, question and reference together; one candidate; one current unit), by position.
 */
function reference(db: Db, datasetId: number, search: string): number[] {
  const words = search.toLowerCase().split(' ')
  const all = (s: string) => words.every((w) => holds(s, w))
  const items = db
    .prepare('SELECT id, ext_id, question, reference FROM items WHERE dataset_id = ? ORDER BY position')
    .all(datasetId) as { id: number; ext_id: string; question: string | null; reference: string }[]
  const texts = (sql: string, id: number) => db.prepare(sql).pluck().all(id) as string[]
  return items
    .filter(
      (i) =>
        all(`${i.ext_id} ${i.question ?? ''} ${i.reference}`) ||
        texts('SELECT text FROM candidates WHERE item_id = ?', i.id).some(all) ||
        texts(
          'SELECT text FROM units WHERE item_id = ? AND superseded_by IS NULL AND deleted_at IS NULL',
          i.id,
        ).some(all),
    )
    .map((i) => i.id)
}

/** What the search read before migration 0210: every word through units_fts, unit by unit. */
function unitByUnit(db: Db, datasetId: number, search: string): number[] {
  const fts = ftsQuery(search, (piece) => wordsContaining(db, piece, MAX_TERMS))
  if (!fts) return []
  return db
    .prepare(
      `SELECT id FROM items WHERE dataset_id = @ds AND id IN (${matchingItems(false)}) ORDER BY position`,
    )
    .pluck()
    .all({ ds: datasetId, fts }) as number[]
}

/** The kept item-level index against the units: each word's items, and one row per item with a current unit. */
function checkIndex(db: Db): void {
  const itemsWith = (word: string) =>
    (
      db
        .prepare(
          'SELECT item_id, text FROM units WHERE superseded_by IS NULL AND deleted_at IS NULL ORDER BY item_id',
        )
        .all() as { item_id: number; text: string }[]
    )
      .filter((u) => word === '' || tokens(u.text).includes(asIndexed(word)))
      .map((u) => u.item_id)
  const unique = (ids: number[]) => [...new Set(ids)]
  expect(db.prepare('SELECT rowid FROM item_units_fts ORDER BY rowid').pluck().all()).toEqual(
    unique(itemsWith('')),
  )
  for (const w of WORDS)
    expect(
      db
        .prepare('SELECT rowid FROM item_units_fts WHERE item_units_fts MATCH ? ORDER BY rowid')
        .pluck()
        .all(`"${asIndexed(w)}"`),
    ).toEqual(unique(itemsWith(w)))
}

describe('one-word searches through the item-level word index (migration 0210)', () => {
  it('find the same items, in the same order and count, as the rows say and as unit by unit', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        const fx = makeFixture(tmp(), { items: 3, variants: ['answer'], facts: 2 })
        const db = fx.db
        const content = new ContentWriter(db)
        const labels = new LabelWriter(db)
        const ana = ensureAnnotator(db, 'ana')
        let position = 3
        const itemIds = () => db.prepare('SELECT id FROM items ORDER BY id').pluck().all() as number[]
        const unitIds = () => db.prepare('SELECT id FROM units ORDER BY id').pluck().all() as number[]
        const pick = <T>(xs: T[], n: number) => xs[n % xs.length]
        for (const o of ops) {
          try {
            if (o.kind === 'label') {
              const targets = db.prepare('SELECT id FROM targets ORDER BY id').pluck().all() as number[]
              const target = pick(targets, o.target)
              if (target !== undefined)
                labels.save({ targetId: target, annotatorId: ana.id, verdict: 'true' })
            } else if (o.kind === 'add') {
              const item = pick(itemIds(), o.item)
              if (item !== undefined) addUnit(db, { itemId: item, kind: 'fact', text: o.text })
            } else if (o.kind === 'edit') editUnit(db, pick(unitIds(), o.unit)!, o.text)
            else if (o.kind === 'delete') deleteUnit(db, pick(unitIds(), o.unit)!)
            else if (o.kind === 'restore') restoreUnit(db, pick(unitIds(), o.unit)!)
            else if (o.kind === 'merge') mergeUnits(db, [pick(unitIds(), o.a)!, pick(unitIds(), o.b)!])
            else if (o.kind === 'split') splitUnit(db, pick(unitIds(), o.unit)!, [o.a, o.b])
            else if (o.kind === 'newItem') {
              const id = content.insertItem(
                fx.datasetId,
                { extId: `n${position}`, question: o.question, reference: 'R.' },
                position++,
              )
              if (o.unit !== null) content.insertUnit(id, { kind: 'fact', text: o.unit })
            } else if (o.kind === 'dropItem') {
              const item = pick(itemIds(), o.item)
              if (item !== undefined) db.prepare('DELETE FROM items WHERE id = ?').run(item)
            } else {
              const ds = createHiddenDataset(db, { name: `import ${position++}`, labelSchema: FAAF_SCHEMA })
              const chunks = new ChunkWriter(db, ds)
              const first = chunks.write(() => {
                const id = content.insertItem(ds, { extId: 'a', question: 'Q?', reference: 'R.' }, 0)
                content.insertUnit(id, { kind: 'fact', text: o.a })
                return id
              })
              chunks.write(() => {
                content.insertUnit(first, { kind: 'fact', text: o.b })
                const id = content.insertItem(ds, { extId: 'b', question: 'Q?', reference: 'R.' }, 1)
                content.insertUnit(id, { kind: 'fact', text: o.c })
              })
              if (o.keep) publishDataset(db, ds)
              else discardDataset(db, ds)
            }
          } catch {
            // A change the app refuses changes nothing.
          }
          checkIndex(db)
          const datasets = db
            .prepare("SELECT id FROM datasets WHERE state = 'ready'")
            .pluck()
            .all() as number[]
          for (const ds of datasets)
            for (const search of SEARCHES) {
              const page = queryItems(db, {
                datasetId: ds,
                annotatorId: null,
                filter: { status: 'all', variant: null, search },
                offset: 0,
                limit: 100,
              })
              const want = reference(db, ds, search)
              expect(page.rows.map((r) => r.itemId)).toEqual(want)
              expect(page.total).toBe(want.length)
              expect(unitByUnit(db, ds, search)).toEqual(want)
            }
        }
        db.close()
      }),
      { numRuns: 20 },
    )
  })
})
