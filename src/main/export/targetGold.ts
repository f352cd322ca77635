import { isDefaultGoldRule } from '../../shared/goldRule'
import { type GoldVerdict, resolveGold } from '../labels/gold'
import { storedGoldWithSource } from '../labels/reads'
import type { Db } from '../store/connection'
import { datasetSettings } from '../store/repos/datasets'
import type { LabelTable } from './labelTable'

/** Gold of one target: a stored row wins, else the dataset's rule (the default one computed here). */
export function goldReader(db: Db, datasetId: number, labels: LabelTable) {
  if (!isDefaultGoldRule(datasetSettings(db, datasetId).goldRule)) {
    const ruled = resolveGold(db, datasetId)
    return (targetId: number): Pick<GoldVerdict, 'verdict' | 'source'> | undefined => ruled.get(targetId)
  }
  const stored = new Map<number, Pick<GoldVerdict, 'verdict' | 'source'>>()
  for (const [t, verdict, source] of storedGoldWithSource(db, datasetId)) stored.set(t, { verdict, source })
  const seen: number[] = []
  const counts: number[] = []
  // The strict majority of the verdicts given (resolveGold's default rule): none on a tie.
  return (targetId: number, first: number, end: number) => {
    const s = stored.get(targetId)
    if (s) return s
    seen.length = 0
    counts.length = 0
    for (let k = first; k < end; k++) {
      const v = labels.verdict[k]!
      if (v < 0) continue
      const at = seen.indexOf(v)
      if (at < 0) {
        seen.push(v)
        counts.push(1)
      } else counts[at]!++
    }
    let best = -1
    let bestN = 0
    let tie = false
    for (let j = 0; j < seen.length; j++) {
      if (counts[j]! > bestN) {
        best = seen[j]!
        bestN = counts[j]!
        tie = false
      } else if (counts[j] === bestN) tie = true
    }
    return best < 0 || tie ? undefined : { verdict: labels.verdicts[best]!, source: 'majority' as const }
  }
}
