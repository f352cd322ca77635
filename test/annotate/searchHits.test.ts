import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { queryItems } from '../../src/main/annotate/datasets'
import { ftsQuery, MAX_TERMS } from '../../src/main/annotate/search'
import { UNIT_ITEMS_INDEX } from '../../src/main/annotate/searchHits'
import { wordsContaining } from '../../src/main/annotate/vocabulary'
import { LabelWriter } from '../../src/main/labels/labels'
import { type Db, openWorkspace } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { ContentWriter } from '../../src/main/store/repos/content'
import { createDataset } from '../../src/main/store/repos/datasets'
import { deleteUnit, editUnit, restoreUnit } from '../../src/main/units/edit'
import type { ItemFilter, ItemRow } from '../../src/shared/contract/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

/** The search as it was: every match joined from the units' own rows, the oracle of the tests. */
const PLAIN_MATCHES = `SELECT rowid FROM items_fts WHERE items_fts MATCH @fts
  UNION ALL SELECT c.item_id FROM candidates_fts f JOIN candidates c ON c.id = f.rowid WHERE candidates_fts MATCH @fts
  UNION ALL SELECT u.item_id FROM units_fts f JOIN units u ON u.id = f.rowid WHERE units_fts MATCH @fts
    AND u.superseded_by IS NULL AND u.deleted_at IS NULL`

const WORDS = ['river', 'riverbank', 'rivet', 'orchard', 'volcano', 'stone', 'café', 'of', 'a']
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '))

const itemSpec = fc.record({
  // Few positions, so items share one and the order falls back to the id.
  position: fc.nat(4),
  question: text,
  reference: text,
  candidates: fc.subarray(['answer', 'poor']),
  candidateText: text,
  facts: fc.array(text, { maxLength: 3 }),
})

const op = fc.oneof(
  fc.record({ kind: fc.constant('edit' as const), unit: fc.nat(), text }),
  fc.record({ kind: fc.constant('delete' as const), unit: fc.nat() }),
  fc.record({ kind: fc.constant('restore' as const), unit: fc.nat() }),
  fc.record({
    kind: fc.constant('label' as const),
    who: fc.constantFrom('ana', 'bob'),
    target: fc.nat(),
    verdict: fc.constantFrom('true', 'false'),
  }),
  fc.record({
    kind: fc.constant('verdict' as const),
    target: fc.nat(),
    verdict: fc.constantFrom('true', 'false'),
  }),
)

const SEARCHES = [
  'river',
  'rive',
  'iver',
  'orch',
  'stone river',
  'cafe',
  'of',
  'volc',
  'zzz',
  'q1',
  'bank',
  'a river',
]

const query = fc.record({
  search: fc.constantFrom(...SEARCHES),
  status: fc.constantFrom<ItemFilter['status']>('all', 'all', 'unlabelled', 'disputed', 'judgeDisagreement'),
  variant: fc.constantFrom<string | null>(null, null, 'answer', 'poor'),
  offset: fc.nat(4),
  limit: fc.integer({ min: 1, max: 4 }),
})

function build(db: Db, spec: { a: fc.infer<typeof itemSpec>[]; b: fc.infer<typeof itemSpec>[] }) {
  const w = new ContentWriter(db)
  const ids: number[] = []
  for (const [name, items] of [
    ['a', spec.a],
    ['b', spec.b],
  ] as const) {
    const ds = createDataset(db, { name, labelSchema: FAAF_SCHEMA })
    ids.push(ds.id)
    items.forEach((it, n) => {
      const item = w.insertItem(
        ds.id,
        { extId: `q${n}`, question: it.question, reference: it.reference },
        it.position,
      )
      for (const v of it.candidates) w.insertCandidate(item, { variant: v, text: `${it.candidateText} ${v}` })
      for (const f of it.facts) w.insertUnit(item, { kind: 'fact', text: f })
    })
  }
  return ids[0]!
}

function apply(db: Db, ops: fc.infer<typeof op>[]): void {
  const labels = new LabelWriter(db)
  const run = db
    .prepare(
      `INSERT INTO runs (kind, dataset_id, provider, model, method, status, created_at)
       VALUES ('judge', 1, 'openai', 'gpt-test', 'faaf-tf', 'done', '2026-01-01')`,
    )
    .run().lastInsertRowid
  const pick = (sql: string, n: number) => {
    const all = db.prepare(sql).pluck().all() as number[]
    return all.length === 0 ? null : all[n % all.length]!
  }
  const current = 'SELECT id FROM units WHERE superseded_by IS NULL AND deleted_at IS NULL ORDER BY id'
  for (const o of ops) {
    if (o.kind === 'edit' || o.kind === 'delete') {
      const unit = pick(current, o.unit)
      if (unit === null) continue
      if (o.kind === 'edit') editUnit(db, unit, o.text)
      else deleteUnit(db, unit)
    } else if (o.kind === 'restore') {
      const unit = pick('SELECT id FROM units WHERE deleted_at IS NOT NULL ORDER BY id', o.unit)
      if (unit !== null) restoreUnit(db, unit)
    } else {
      const target = pick('SELECT id FROM targets WHERE dataset_id = 1 ORDER BY id', o.target)
      if (target === null) continue
      if (o.kind === 'label') {
        const annotatorId = ensureAnnotator(db, o.who).id
        labels.save({ targetId: target, annotatorId, verdict: o.verdict })
      } else {
        db.prepare(
          `INSERT OR IGNORE INTO verdicts (run_id, target_id, status, verdict) VALUES (?, ?, 'ok', ?)`,
        ).run(run, target, o.verdict)
      }
    }
  }
}

/**
 * What the view must show: the items the same filter lists without a search, kept when the
 * plain query finds them, in position order then id, and the page cut from that.
 */
function expected(db: Db, datasetId: number, annotatorId: number, q: fc.infer<typeof query>) {
  const filter = { status: q.status, variant: q.variant, search: '' }
  const all = queryItems(db, { datasetId, annotatorId, filter, offset: 0, limit: 1_000_000 }).rows
  const fts = ftsQuery(q.search, (piece) => wordsContaining(db, piece, MAX_TERMS))
  const found = new Set(fts ? (db.prepare(PLAIN_MATCHES).pluck().all({ fts }) as number[]) : [])
  const rows = all
    .filter((r) => found.has(r.itemId))
    .sort((x: ItemRow, y: ItemRow) => x.position - y.position || x.itemId - y.itemId)
  return { total: rows.length, rows: rows.slice(q.offset, q.offset + q.limit) }
}

describe('items search, matches gathered in memory', () => {
  it('lists the same items, rows and count as the plain query, with and without the index of migration 0210', () => {
    fc.assert(
      fc.property(
        fc.record({ a: fc.array(itemSpec, { maxLength: 6 }), b: fc.array(itemSpec, { maxLength: 3 }) }),
        fc.array(op, { maxLength: 25 }),
        fc.array(query, { minLength: 1, maxLength: 6 }),
        (spec, ops, queries) => {
          const db = openWorkspace(join(tmp(), 'w.factlab'), { skipQuickCheck: true })
          try {
            const datasetId = build(db, spec)
            const me = ensureAnnotator(db, 'ana').id
            ensureAnnotator(db, 'bob')
            apply(db, ops)
            const run = (q: fc.infer<typeof query>) =>
              queryItems(db, {
                datasetId,
                annotatorId: me,
                filter: { status: q.status, variant: q.variant, search: q.search },
                offset: q.offset,
                limit: q.limit,
              })
            const want = queries.map((q) => expected(db, datasetId, me, q))
            expect(queries.map(run)).toEqual(want)
            // A workspace opened read-only before the migration has no such index.
            db.exec(`DROP INDEX ${UNIT_ITEMS_INDEX}`)
            expect(queries.map(run)).toEqual(want)
          } finally {
            db.close()
          }
        },
      ),
      { numRuns: 60 },
    )
  })
})
