/**
 * The Items search box, turned into an FTS5 query over the indexes of migration 0020.
 * Pure: no database here, so the word rules can be tested on their own.
 */

/** Words as FTS5's unicode61 tokenizer sees them: runs of letters, digits and marks. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu

/**
 * Below this many characters a word matches only whole words: "a" inside a word would match
 * most of a dataset. From here on a word is found inside other words ("olcan" finds "volcano").
 */
export const MIN_PREFIX = 3

/** Most indexed words one typed word may stand for; past it the search keeps to word starts. */
export const MAX_TERMS = 500

/** A typed word as the index stores it: lower case, accents removed (remove_diacritics 2). */
export function asIndexed(word: string): string {
  return word.normalize('NFKC').toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC')
}

/** The words of a search as typed, lower case; none when it is only punctuation. */
export function searchWords(search: string): string[] {
  return search.normalize('NFKC').toLowerCase().match(WORD) ?? []
}

const quote = (w: string) => `"${w}"`

/**
 * An FTS5 MATCH expression that finds rows holding every word of `search`. A word of three or
 * more characters matches any indexed word that contains it (`termsContaining` lists them; too
 * many, and it matches words that start with it instead); a shorter one matches whole words.
 * Words are quoted, so nothing the user types is read as FTS5 syntax. Null when the search has
 * no word at all (only punctuation), which the caller answers without the index; the empty
 * expression '' when a word is found nowhere, so nothing matches.
 */
export function ftsQuery(search: string, termsContaining?: (piece: string) => string[]): string | null {
  const words = searchWords(search)
  if (words.length === 0) return null
  const parts: string[] = []
  for (const w of words) {
    if (w.length < MIN_PREFIX) {
      parts.push(quote(w))
      continue
    }
    const terms = termsContaining?.(asIndexed(w))
    if (terms === undefined || terms.length > MAX_TERMS) parts.push(`${quote(w)}*`)
    else if (terms.length === 0) return ''
    else parts.push(terms.length === 1 ? quote(terms[0]!) : `(${terms.map(quote).join(' OR ')})`)
  }
  return parts.join(' AND ')
}

const CURRENT = 'u.superseded_by IS NULL AND u.deleted_at IS NULL'

/**
 * Item ids (of any dataset, repeats possible) whose id, question, reference, a candidate or a
 * current unit holds every word of the @fts query. Each table has its own index, so a word in
 * the question and another in a candidate do not make a match: a search within one text.
 *
 * With one word typed (`oneWord`), the units' part reads the item-level index of migration 0210
 * (each item once, its current units' words): a word is in one of an item's current units
 * exactly when it is in that row. With more words they must share one unit, which only
 * units_fts can say.
 */
export function matchingItems(oneWord: boolean): string {
  const units = oneWord
    ? 'SELECT rowid FROM item_units_fts WHERE item_units_fts MATCH @fts'
    : `SELECT u.item_id FROM units_fts f JOIN units u ON u.id = f.rowid WHERE units_fts MATCH @fts AND ${CURRENT}`
  return `SELECT rowid FROM items_fts WHERE items_fts MATCH @fts
  UNION ALL SELECT c.item_id FROM candidates_fts f JOIN candidates c ON c.id = f.rowid WHERE candidates_fts MATCH @fts
  UNION ALL ${units}`
}
