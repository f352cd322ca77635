import type { ItemLevel } from '../../../shared/contract/itemLevel'
import type { Db } from '../../store/connection'
import type { Snapshot } from '../snapshot'
import { buildItemLevel } from './build'
import { loadItemInputs } from './load'

/**
 * Resamples behind the item-level intervals: items are few (a response each) and every
 * coefficient is recomputed per resample, so the count is capped to keep the Compare view quick.
 */
export const ITEM_REPLICATES_MAX = 500

export function itemLevelFor(
  db: Db,
  s: Snapshot,
  names: ReadonlyMap<number, string>,
  dcr: { alpha: number; beta: number },
  boot: { seed: number; replicates: number },
): ItemLevel {
  const inputs = loadItemInputs(
    db,
    s.dataset.id,
    s.t,
    s.runs.map((r) => r.id),
  )
  return buildItemLevel({
    t: s.t,
    coder: s.coder,
    runs: s.runs,
    columns: s.columns,
    inputs,
    names,
    alpha: dcr.alpha,
    beta: dcr.beta,
    boot: { seed: boot.seed, replicates: Math.min(boot.replicates, ITEM_REPLICATES_MAX) },
  })
}
