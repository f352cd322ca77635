import { type DatasetMetrics, type Figures, fmtPct } from '../../../../shared/contract/metrics'
import {
  type Cell,
  ITEM_LEVEL_HEAD,
  ITEM_LEVEL_NOTE,
  itemLevelCells,
  POOLED,
} from '../../../../shared/itemLevelRows'
import { rateNote } from '../../../../shared/smallSample'
import { api } from '../../api'
import { LoadFailed, Loading } from '../../components/Loading'
import { useQuery } from '../../hooks'
import { PlainTable } from './Extras'
import { useFigureReload } from './useFigureReload'

const PINNED = [ITEM_LEVEL_HEAD.indexOf('Variant'), ITEM_LEVEL_HEAD.indexOf('Level')]

/**
 * The target-level error rate beside a pooled row, with the mark the judge table gives it over
 * too few targets: a bare 31.3% over 16 targets would read as steadier than the row's own marks.
 */
function targetErrorRate(f: Figures | undefined): Cell {
  const er = f?.errorRate ?? null
  return { text: fmtPct(er), note: er === null || f === undefined ? '' : rateNote(f.n) }
}

/**
 * Item-level correlations (one score per response against the human item score), each row
 * with the judge's target-level error rate beside it. Loaded on its own (`metrics.itemLevel`):
 * its bootstrap takes longer than the target-level figures above.
 */
export function ItemLevelPanel({ metrics: m, datasetId }: { metrics: DatasetMetrics; datasetId: number }) {
  const q = useQuery(() => api('metrics.itemLevel', { datasetId }), [datasetId])
  useFigureReload(datasetId, q.reload)
  const l = q.data
  if (q.error) return <LoadFailed what="item-level correlations" error={q.error} onRetry={q.reload} />
  if (!l)
    return <Loading what="item-level correlations" detail="Correlating each judge with gold item by item." />
  if (l.correlations.length === 0) return null
  const errorRate = new Map(m.judges.map((j) => [j.label, j]))
  const humanRate = new Map(m.humans.map((h) => [h.annotator, h]))
  const rows = itemLevelCells(l).map((r) => {
    const label = r[0] as string
    const f = errorRate.get(label) ?? humanRate.get(label)
    return [...r, r[3] === 'all' && r[4] === POOLED ? targetErrorRate(f) : '']
  })
  return (
    <PlainTable
      title="Item-level correlation with human scores"
      note={ITEM_LEVEL_NOTE}
      testId="item-level"
      head={[...ITEM_LEVEL_HEAD, 'Target error rate']}
      // Scrolled sideways at 1024 px, pooled, summary-, system- and per-variant rows stay told apart.
      pinWithFirst={PINNED}
      rows={rows}
    />
  )
}
