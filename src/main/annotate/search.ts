/**
 * The Items search box, turned into an FTS5 query over the indexes of migration 0020.
 * Pure: no database here, so the word rules can be tested on their own.
 */

/** Words as FTS5's unicode61 tokenizer sees them: runs of letters, digits and marks. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu

/** Below this many characters a word matches only whole words: "a*" would match most of a dataset. */
export const MIN_PREFIX = 3

/**
 * An FTS5 MATCH expression that finds rows holding every word of `search`, each word as the
 * start of a word in the text ("volc" finds "volcano"), so results follow the typing. Words are
 * quoted, so nothing the user types is read as FTS5 syntax. Null when the search has no word
 * at all (only punctuation), which the caller answers without the index.
 */
export function ftsQuery(search: string): string | null {
  const words = search.normalize('NFKC').toLowerCase().match(WORD)
  if (!words) return null
  return words.map((w) => (w.length >= MIN_PREFIX ? `"${w}"*` : `"${w}"`)).join(' AND ')
}

const CURRENT = 'u.superseded_by IS NULL AND u.deleted_at IS NULL'

/**
 * Item ids (of any dataset, repeats possible) whose id, question, reference, a candidate or a
 * current unit holds every word of the @fts query. Each table has its own index, so a word in
 * the question and another in a candidate do not make a match: a search within one text.
 */
export const MATCHING_ITEMS = `SELECT rowid FROM items_fts WHERE items_fts MATCH @fts
  UNION ALL SELECT c.item_id FROM candidates_fts f JOIN candidates c ON c.id = f.rowid WHERE candidates_fts MATCH @fts
  UNION ALL SELECT u.item_id FROM units_fts f JOIN units u ON u.id = f.rowid WHERE units_fts MATCH @fts AND ${CURRENT}`
