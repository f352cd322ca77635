import type { Db } from '../store/connection'
import { leafWords } from './leafWords'

/**
 * The words the Items search indexes hold (items_fts, candidates_fts, units_fts of migration
 * 0020), so a search can find a piece of a word: the words containing it are looked up here and
 * searched for whole. Each index's words are read once per connection from its leaf pages
 * (leafWords.ts; fts5vocab when they cannot be read) into one string, '\n' after each word, and
 * kept until that index changes: its structure record (row 10 of its data table) moves with
 * every write to it, so comparing those few bytes tells a stale list from a good one. A piece is
 * found with indexOf over that string, not word by word. Nothing is stored in the workspace: the
 * word index is the only index on disk.
 */
const INDEXES = ['items_fts', 'candidates_fts', 'units_fts'] as const
type Index = (typeof INDEXES)[number]

interface Words {
  stamp: string
  /** '\n' + every word + '\n', so each word sits between two newlines. */
  text: string
  count: number
  /** From the leaves: may hold words whose rows are all deleted (see leafWords.ts). */
  superset: boolean
}

const cache = new WeakMap<Db, Map<Index, Words>>()

function stamp(db: Db, index: Index): string {
  const block = db.prepare(`SELECT block FROM ${index}_data WHERE id = 10`).pluck().get() as
    | Buffer
    | undefined
  return block ? block.toString('hex') : '-'
}

function vocabWords(db: Db, index: Index): { text: string; count: number } {
  // A temp table: it lives in this connection only and never reaches the workspace file.
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${index}_vocab USING fts5vocab(main, ${index}, row)`)
  const terms = db.prepare(`SELECT term FROM temp.${index}_vocab`).pluck().all() as string[]
  return { text: terms.length === 0 ? '' : `${terms.join('\n')}\n`, count: terms.length }
}

function wordsOf(db: Db, index: Index): Words {
  let kept = cache.get(db)
  if (!kept) {
    kept = new Map()
    cache.set(db, kept)
  }
  const hit = kept.get(index)
  // One read transaction: the stamp and the pages come from the same state of the index, even
  // while another connection (an import) writes to it.
  const fresh = db.transaction((): Words => {
    const now = stamp(db, index)
    if (hit?.stamp === now) return hit
    const leaves = leafWords(db, index)
    const words = leaves ?? vocabWords(db, index)
    return { stamp: now, text: `\n${words.text}`, count: words.count, superset: leaves !== null }
  })()
  kept.set(index, fresh)
  return fresh
}

/**
 * Reads every index's words now, if they are not held already: how many (a word of several
 * indexes or segments counts once in each) and the characters they take.
 */
export function loadWords(db: Db): { words: number; chars: number } {
  let words = 0
  let chars = 0
  for (const index of INDEXES) {
    const list = wordsOf(db, index)
    chars += list.text.length
    words += list.count
  }
  return { words, chars }
}

/** Words of `text` (a word list as above) containing `piece`, each once per appearance. */
function* containing(text: string, piece: string): Generator<string> {
  let from = 0
  for (;;) {
    const hit = text.indexOf(piece, from)
    if (hit === -1) return
    const end = text.indexOf('\n', hit)
    yield text.slice(text.lastIndexOf('\n', hit) + 1, end)
    from = end
  }
}

/** Whether some row of some index holds a word (as indexed: no quote can be in it). */
function liveCheck(db: Db): (word: string) => boolean {
  const probes = INDEXES.map((index) => db.prepare(`SELECT 1 FROM ${index} WHERE ${index} MATCH ? LIMIT 1`))
  return (word) => probes.some((p) => p.get(`"${word}"`) !== undefined)
}

/**
 * Distinct indexed words (lower case, accents removed, as indexed) containing `piece`, at most
 * `max` + 1 (enough to tell "too many"). The same words fts5vocab would give: a word the leaves
 * still hold after its rows were deleted matches no row, so it changes no search, except by
 * counting towards `max`; past `max`, words are checked against the index before they count.
 */
export function wordsContaining(db: Db, piece: string, max: number): string[] {
  const found = new Set<string>()
  const unchecked: string[] = []
  for (const index of INDEXES) {
    const words = wordsOf(db, index)
    for (const word of containing(words.text, piece)) {
      if (found.has(word)) continue
      found.add(word)
      if (words.superset) unchecked.push(word)
    }
  }
  if (found.size <= max) return [...found]
  const out: string[] = []
  const suspect = new Set(unchecked)
  const live = liveCheck(db)
  for (const word of found) {
    if (suspect.has(word) && !live(word)) continue
    out.push(word)
    if (out.length > max) break
  }
  return out
}
