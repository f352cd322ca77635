import { TRIPLET_PARTS } from '../../shared/contract/units'
import type { Triplet } from '../../shared/domain'
import { tripletPhrase } from '../generate/triplets'
import { cleanText, UnitsError } from './rows'

/**
 * The rules that keep a triplet unit's (subject, predicate, object) and its text in step: the
 * text is always the parts read as a phrase (the extractor's and the importer's rule), so a
 * person edits the parts and never the text on its own.
 */

/** Trims each part; a blank one is refused with the part's name (and the piece's, in a split). */
export function cleanTriplet(parts: readonly string[], where = ''): Triplet {
  const clean = TRIPLET_PARTS.map((name, i) => {
    const p = (parts[i] ?? '').trim()
    if (!p) throw new UnitsError('bad_input', `${where}The ${name} of a triplet cannot be empty`)
    return p
  })
  if (parts.length !== TRIPLET_PARTS.length)
    throw new UnitsError(
      'bad_input',
      `${where}A triplet has exactly three parts: subject, predicate and object`,
    )
  return [clean[0]!, clean[1]!, clean[2]!]
}

/** What a unit holds: its text and its parts (null for free text). */
export interface UnitContent {
  text: string
  triplet: Triplet | null
}

export function tripletContent(parts: readonly string[], where = ''): UnitContent & { triplet: Triplet } {
  const t = cleanTriplet(parts, where)
  return { text: tripletPhrase(t), triplet: t }
}

/**
 * The content an edit leads to. Parts win over a text (the text follows from them); `null`
 * parts turn a triplet into free text on purpose; a text alone may not silently drop a
 * triplet's parts.
 */
export function editedContent(
  row: { kind: string; text: string; triplet: Triplet | null },
  text: string | undefined,
  triplet: readonly string[] | null | undefined,
): UnitContent {
  if (triplet) {
    if (row.kind !== 'triplet') throw notATriplet(row.kind)
    return tripletContent(triplet)
  }
  if (text === undefined) throw new UnitsError('bad_input', 'Give the new text of the unit')
  const clean = cleanText(text)
  if (triplet === null) return { text: clean, triplet: null }
  if (row.triplet !== null && clean !== row.text)
    throw new UnitsError(
      'bad_input',
      'A triplet is edited by its subject, predicate and object, and its text follows from them; give the three parts',
    )
  return { text: clean, triplet: row.triplet }
}

/** The refusal of parts given for a unit of another kind. */
export function notATriplet(kind: string): UnitsError {
  return new UnitsError(
    'bad_input',
    `Only a triplet unit has a subject, predicate and object; this unit is a ${kind}`,
  )
}

export const TRIPLET_MERGE_REFUSED =
  'Triplets cannot be merged: two claims do not make one (subject, predicate, object). Edit one of them and delete the other.'

export const TRIPLET_SPLIT_NEEDS_PARTS =
  'A triplet splits into triplets: give a subject, predicate and object for each piece'
