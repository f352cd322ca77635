import type { UnitEntry } from '../../../../shared/contract/units'
import type { UnitKind } from '../../../../shared/domain'

/** One ordered list of units that reorder, merge and add work within. */
export interface UnitGroup {
  key: string
  kind: UnitKind
  candidateId: number | null
  units: UnitEntry[]
}

export function groupKey(kind: UnitKind, candidateId: number | null): string {
  return kind === 'fact' ? 'fact' : `${kind}:${candidateId}`
}

/** Splits a page's units into its lists, keeping the order the server gave. */
export function groupUnits(units: readonly UnitEntry[]): UnitGroup[] {
  const groups = new Map<string, UnitGroup>()
  for (const u of units) {
    const candidateId = u.kind === 'fact' ? null : u.candidateId
    const key = groupKey(u.kind, candidateId)
    let g = groups.get(key)
    if (!g) {
      g = { key, kind: u.kind, candidateId, units: [] }
      groups.set(key, g)
    }
    g.units.push(u)
  }
  return [...groups.values()]
}

/** The ids of a list with one unit moved up (-1) or down (+1); null when it cannot move. */
export function moved(ids: readonly number[], id: number, by: -1 | 1): number[] | null {
  const i = ids.indexOf(id)
  const j = i + by
  if (i < 0 || j < 0 || j >= ids.length) return null
  const out = [...ids]
  out[i] = ids[j]!
  out[j] = id
  return out
}

/** Pieces of a split, one per non-blank line of what the person typed. */
export function splitPieces(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
}

export const KIND_LABEL: Record<UnitKind, string> = {
  fact: 'Facts',
  triplet: 'Triplets',
  sentence: 'Sentences',
  whole: 'Whole answer',
}
