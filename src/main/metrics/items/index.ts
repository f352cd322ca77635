import type { ItemLevel } from '../../../shared/contract/itemLevel'
import type { DatasetMetrics } from '../../../shared/contract/metrics'
import type { Db } from '../../store/connection'
import { listAnnotators } from '../../store/repos/annotators'
import { datasetSettings } from '../../store/repos/datasets'
import { memoised } from '../snapshot'
import { buildItemLevel } from './build'
import { loadItemInputs } from './load'

/**
 * Resamples behind the item-level intervals: every coefficient is recomputed per resample, so
 * the count is capped here and lowered further on very large datasets (build.ts, replicatesFor);
 * the report states the count used as `bootstrap_replicates`.
 */
export const ITEM_REPLICATES_MAX = 500

export interface ItemLevelOptions {
  seed?: number
  replicates?: number
}

/**
 * Item-level scores and correlations of a dataset, computed once per workspace version. Kept
 * apart from computeDatasetMetrics: its bootstrap costs more than every target-level figure.
 */
export function computeItemLevel(db: Db, datasetId: number, opts: ItemLevelOptions = {}): ItemLevel {
  const seed = opts.seed ?? 1
  const replicates = Math.min(opts.replicates ?? 1000, ITEM_REPLICATES_MAX)
  return memoised(db, datasetId, `items:${seed}:${replicates}`, (s) => {
    const { alpha, beta } = datasetSettings(db, datasetId)
    const names = new Map(listAnnotators(db).map((a) => [a.id, a.name]))
    return buildItemLevel({
      t: s.t,
      coder: s.coder,
      runs: s.runs,
      columns: s.columns,
      inputs: loadItemInputs(
        db,
        datasetId,
        s.t,
        s.runs.map((r) => r.id),
      ),
      names,
      alpha,
      beta,
      boot: { seed, replicates },
    })
  })
}

/** The dataset's figures with the item-level section, as reports and `metrics --json` give them. */
export function withItemLevel(db: Db, m: DatasetMetrics, opts: ItemLevelOptions = {}): DatasetMetrics {
  return { ...m, itemLevel: computeItemLevel(db, m.datasetId, { seed: m.seed, ...opts }) }
}
