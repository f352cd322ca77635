import type { DatasetMetrics } from '../../shared/contract/metrics'
import { ITEM_LEVEL_HEAD, ITEM_LEVEL_NOTE, itemLevelRows } from '../../shared/itemLevelRows'

/** Item-level correlations as a report table (the shape of tables.ts's Table), or none. */
export function itemLevelTables(
  m: DatasetMetrics,
): { title: string; note: string; head: string[]; rows: string[][] }[] {
  if (!m.itemLevel || m.itemLevel.correlations.length === 0) return []
  return [
    {
      title: 'Item-level scores against human item scores',
      note: ITEM_LEVEL_NOTE,
      head: ITEM_LEVEL_HEAD,
      rows: itemLevelRows(m.itemLevel),
    },
  ]
}
