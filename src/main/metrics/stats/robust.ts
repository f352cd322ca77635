import { gwetAc1 } from './gwet'
import { pabak } from './pabak'

type Rating = string | number | null

export interface RobustFigures {
  ac1: number | null
  pabak: number | null
  dominantLabel: string | null
  dominantShare: number | null
}

export const NO_ROBUST: RobustFigures = { ac1: null, pabak: null, dominantLabel: null, dominantShare: null }

/**
 * The figures that stand beside κ and α when one class dominates: AC1, PABAK and the dominant
 * label's share of all labels on targets rated at least twice. `categories` is the size of the
 * schema's label space. Numeric schemas have none of them (their labels are not categories).
 */
export function robustFigures(
  rows: readonly (readonly Rating[])[],
  categories: number,
  numeric: boolean,
): RobustFigures {
  if (numeric) return NO_ROBUST
  const ac1 = gwetAc1(rows, categories)
  const tally = new Map<string, number>()
  let total = 0
  for (const row of rows) {
    let present = 0
    for (const v of row) if (v !== null) present++
    if (present < 2) continue
    for (const v of row) {
      if (v === null) continue
      tally.set(String(v), (tally.get(String(v)) ?? 0) + 1)
      total++
    }
  }
  let dominantLabel: string | null = null
  let top = 0
  for (const [k, c] of tally) if (c > top) [dominantLabel, top] = [k, c]
  return {
    ac1: ac1.ac1,
    pabak: pabak(ac1.pa, Math.max(categories, tally.size)),
    dominantLabel,
    dominantShare: total === 0 ? null : top / total,
  }
}
