import Database from 'better-sqlite3'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { leafWords } from '../../src/main/annotate/leafWords'
import { ftsQuery } from '../../src/main/annotate/search'
import { wordsContaining } from '../../src/main/annotate/vocabulary'

const INDEXES = ['items_fts', 'candidates_fts', 'units_fts'] as const

/** Three FTS5 tables named and tokenized as the workspace's (migration 0020), with tiny pages. */
function indexes() {
  const db = new Database(':memory:')
  for (const t of INDEXES) {
    db.exec(`CREATE VIRTUAL TABLE ${t} USING fts5(text, tokenize = 'unicode61 remove_diacritics 2', detail = none);
      CREATE VIRTUAL TABLE temp.${t}_v USING fts5vocab(main, ${t}, row);`)
    // Small pages and eager merges: long row lists span pages, and merges are often half done.
    db.prepare(`INSERT INTO ${t} (${t}, rank) VALUES ('pgsz', 32)`).run()
    db.prepare(`INSERT INTO ${t} (${t}, rank) VALUES ('automerge', 2)`).run()
  }
  return db
}

/** What SQLite's own fts5vocab lists for all three indexes. */
function vocab(db: Database.Database): Set<string> {
  const out = new Set<string>()
  for (const t of INDEXES)
    for (const w of db.prepare(`SELECT term FROM temp.${t}_v`).pluck().all() as string[]) out.add(w)
  return out
}

const SYLLABLES = ['vol', 'can', 'o', 'ri', 'ver', 'lá', 'va', 'Ça', 'fé', 'ß', '東京', 'x', '42']
// A few words common to many rows, so their row lists run over several pages.
const word = fc.oneof(
  fc.constantFrom('vol', 'x', 'lava'),
  fc.array(fc.constantFrom(...SYLLABLES), { minLength: 1, maxLength: 4 }).map((s) => s.join('')),
)
const text = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '))
const op = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      index: fc.nat(2),
      text,
      times: fc.integer({ min: 1, max: 12 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('delete' as const), index: fc.nat(2), row: fc.nat(400) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('update' as const), index: fc.nat(2), row: fc.nat(400), text }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('merge' as const),
      index: fc.nat(2),
      pages: fc.integer({ min: -4, max: 4 }),
    }),
  },
  fc.record({ kind: fc.constant('optimize' as const), index: fc.nat(2) }),
)

type Op = typeof op extends fc.Arbitrary<infer T> ? T : never

function apply(db: Database.Database, o: Op): void {
  const t = INDEXES[o.index]!
  const rows = () => db.prepare(`SELECT rowid FROM ${t} ORDER BY rowid`).pluck().all() as number[]
  if (o.kind === 'insert')
    for (let i = 0; i < o.times; i++) db.prepare(`INSERT INTO ${t} (text) VALUES (?)`).run(o.text)
  else if (o.kind === 'delete') {
    const all = rows()
    if (all.length) db.prepare(`DELETE FROM ${t} WHERE rowid = ?`).run(all[o.row % all.length])
  } else if (o.kind === 'update') {
    const all = rows()
    if (all.length)
      db.prepare(`UPDATE ${t} SET text = ? WHERE rowid = ?`).run(o.text, all[o.row % all.length])
  } else if (o.kind === 'merge') db.prepare(`INSERT INTO ${t} (${t}, rank) VALUES ('merge', ?)`).run(o.pages)
  else db.prepare(`INSERT INTO ${t} (${t}) VALUES ('optimize')`).run()
}

describe('the word list read from the search index leaves', () => {
  it('holds every word fts5vocab lists, and besides them only words no row holds any more', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const db = indexes()
        for (const o of ops) {
          apply(db, o)
          const want = vocab(db)
          const got = new Set<string>()
          for (const t of INDEXES) {
            const words = leafWords(db, t)
            expect(words).not.toBeNull()
            for (const w of words!.text.split('\n').slice(0, -1)) got.add(w)
            expect(words!.count).toBe(words!.text.split('\n').length - 1)
          }
          for (const w of want) expect(got).toContain(w)
          for (const w of got) {
            if (want.has(w)) continue
            for (const t of INDEXES)
              expect(db.prepare(`SELECT 1 FROM ${t} WHERE ${t} MATCH ?`).get(`"${w}"`)).toBeUndefined()
          }
        }
        db.close()
      }),
      { numRuns: 40 },
    )
  })

  it('gives the same words containing a piece as fts5vocab, up to one past the limit', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 60 }),
        fc.array(fc.constantFrom('vol', 'can', 'ver', 'ola', 'rio', 'ß', '京', 'a', 'o', '42'), {
          minLength: 1,
        }),
        fc.integer({ min: 0, max: 6 }),
        (ops, pieces, max) => {
          const db = indexes()
          for (const o of ops) {
            apply(db, o)
            const all = [...vocab(db)]
            for (const piece of pieces) {
              const want = all.filter((w) => w.includes(piece))
              const got = wordsContaining(db, piece, max)
              expect(new Set(got).size).toBe(got.length)
              if (want.length > max) {
                expect(got.length).toBe(max + 1)
                for (const w of got) expect(want).toContain(w)
              } else {
                // Besides fts5vocab's words, only words no row holds: they find nothing more.
                expect(got.length).toBeLessThanOrEqual(max)
                for (const w of want) expect(got).toContain(w)
                for (const w of got.filter((g) => !want.includes(g)))
                  for (const t of INDEXES)
                    expect(db.prepare(`SELECT 1 FROM ${t} WHERE ${t} MATCH ?`).get(`"${w}"`)).toBeUndefined()
                // And so a search finds the same rows of every index as with fts5vocab's words.
                const query = ftsQuery(piece, () => got)
                const reference = ftsQuery(piece, () => want)
                for (const t of INDEXES) {
                  const rows = (q: string | null) =>
                    q
                      ? db.prepare(`SELECT rowid FROM ${t} WHERE ${t} MATCH ? ORDER BY rowid`).pluck().all(q)
                      : []
                  expect(rows(query)).toEqual(rows(reference))
                }
              }
            }
          }
          db.close()
        },
      ),
      { numRuns: 30 },
    )
  })

  it('reads a segment a merge has half consumed from the page the merge stopped at', () => {
    const db = new Database(':memory:')
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(text, tokenize = 'unicode61 remove_diacritics 2', detail = none);
      CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, t, row);
      INSERT INTO t (t, rank) VALUES ('pgsz', 32);
      INSERT INTO t (t, rank) VALUES ('automerge', 0);
      INSERT INTO t (t, rank) VALUES ('usermerge', 2);`)
    const insert = db.prepare('INSERT INTO t (text) VALUES (?)')
    for (const s of [0, 1])
      db.transaction(() => {
        for (let i = 0; i < 200; i++) insert.run(`w${i} lava s${s}k${i % 17}`)
      })()
    db.exec("INSERT INTO t (t, rank) VALUES ('merge', 3)")
    // Structure record: level 0 holds two segments in a merge, each now starting past page 1.
    const structure = db.prepare('SELECT block FROM t_data WHERE id = 10').pluck().get() as Buffer
    expect(structure[7]).toBe(2)
    expect(structure[10]).toBeGreaterThan(1)
    const got = new Set(leafWords(db, 't')!.text.split('\n').slice(0, -1))
    expect(got).toEqual(new Set(db.prepare('SELECT term FROM temp.v').pluck().all()))
    db.close()
  })
})
