import type { Db } from '../store/connection'

/**
 * The words the Items search indexes hold (items_fts, candidates_fts, units_fts of migration
 * 0020), so a search can find a piece of a word: the words containing it are looked up here and
 * searched for whole. The list is read once per connection through SQLite's fts5vocab tables and
 * kept until an index changes: each index's structure record (row 10 of its data table) moves
 * with every write to it, so comparing those few bytes tells a stale list from a good one.
 * Nothing is stored in the workspace: the word index is the only index on disk.
 */
const INDEXES = ['items_fts', 'candidates_fts', 'units_fts'] as const

interface Cached {
  stamp: string
  terms: string[]
}

const cache = new WeakMap<Db, Cached>()

function stamp(db: Db): string {
  return INDEXES.map((t) => {
    const block = db.prepare(`SELECT block FROM ${t}_data WHERE id = 10`).pluck().get() as Buffer | undefined
    return block ? block.toString('hex') : '-'
  }).join(':')
}

/** Every distinct word of the three search indexes (lower case, accents removed, as indexed). */
export function indexedTerms(db: Db): string[] {
  const now = stamp(db)
  const hit = cache.get(db)
  if (hit?.stamp === now) return hit.terms
  const terms = new Set<string>()
  for (const t of INDEXES) {
    // A temp table: it lives in this connection only and never reaches the workspace file.
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${t}_vocab USING fts5vocab(main, ${t}, row)`)
    for (const term of db.prepare(`SELECT term FROM temp.${t}_vocab`).pluck().all() as string[])
      terms.add(term)
  }
  const fresh = { stamp: now, terms: [...terms] }
  cache.set(db, fresh)
  return fresh.terms
}
