import { type DatasetMetrics, fmtPct } from '../../../../shared/contract/metrics'
import { ITEM_LEVEL_HEAD, ITEM_LEVEL_NOTE, itemLevelRows } from '../../../../shared/itemLevelRows'

/**
 * Item-level correlations (one score per response against the human item score), each row
 * with the judge's target-level error rate beside it, so both readings sit side by side.
 */
export function ItemLevelPanel({ metrics: m }: { metrics: DatasetMetrics }) {
  const l = m.itemLevel
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
      <div className="cmp-table-wrap">
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
