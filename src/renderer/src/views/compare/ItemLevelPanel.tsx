import { useEffect } from 'react'
import { type DatasetMetrics, fmtPct } from '../../../../shared/contract/metrics'
import { ITEM_LEVEL_HEAD, ITEM_LEVEL_NOTE, itemLevelRows } from '../../../../shared/itemLevelRows'
import { api, onEvent } from '../../api'
import { useQuery } from '../../hooks'

/**
 * Item-level correlations (one score per response against the human item score), each row
 * with the judge's target-level error rate beside it. Loaded on its own (`metrics.itemLevel`):
 * its bootstrap takes longer than the target-level figures above.
 */
export function ItemLevelPanel({ metrics: m, datasetId }: { metrics: DatasetMetrics; datasetId: number }) {
  const q = useQuery(() => api('metrics.itemLevel', { datasetId }), [datasetId])
  const { reload } = q
  useEffect(() => {
    const offs = [
      onEvent('labels.changed', (e) => e.datasetId === datasetId && reload()),
      onEvent('runs.progress', (e) => e.status !== 'running' && e.status !== 'queued' && reload()),
      onEvent('workspace.changed', () => reload()),
    ]
    return () => {
      for (const off of offs) off()
    }
  }, [datasetId, reload])
  const l = q.data
  if (q.error) return <p className="cmp-error">{q.error}</p>
  if (!l) return <p className="cmp-hint">Computing item-level correlations…</p>
  if (l.correlations.length === 0) return null
  const errorRate = new Map(m.judges.map((j) => [j.label, j.errorRate]))
  const humanRate = new Map(m.humans.map((h) => [h.annotator, h.errorRate]))
  const rows = itemLevelRows(l).map((r) => {
    const label = r[0]!
    const er = errorRate.has(label) ? errorRate.get(label) : humanRate.get(label)
    return [...r, r[3] === 'all' ? fmtPct(er ?? null) : '']
  })
  return (
    <section>
      <h2>Item-level correlation with human scores</h2>
      <p className="cmp-hint">{ITEM_LEVEL_NOTE}</p>
      <div className="table-frame">
        <table className="cmp-table" data-testid="item-level">
          <thead>
            <tr>
              {[...ITEM_LEVEL_HEAD, 'Target error rate'].map((h) => (
                <th key={h} className="cmp-plain-th">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.join('\u0000')}>
                {r.map((c, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells of a fixed-width row
                  <td key={i}>{c}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
