import { useState } from 'react'
import type { DatasetMetrics } from '../../../../shared/contract/metrics'
import { countOf } from '../../../../shared/plural'
import { api } from '../../api'
import { Loading } from '../../components/Loading'
import { useQuery } from '../../hooks'
import { useViewer } from '../../settings'
import type { Route } from '../types'

/** Targets where a judge and gold part ways; a click opens the target in the Annotate view. */
export function Disagreements(props: {
  datasetId: number
  metrics: DatasetMetrics
  navigate(route: Route): void
}) {
  const [runId, setRunId] = useState<number | null>(null)
  const [variant, setVariant] = useState<string | null>(null)
  const viewer = useViewer()
  const list = useQuery(
    () => api('metrics.disagreements', { datasetId: props.datasetId, runId, variant, limit: 200, viewer }),
    [props.datasetId, runId, variant, props.metrics, viewer],
  )
  return (
    <div className="cmp-disagree">
      <div className="cmp-filters">
        <label>
          Judge{' '}
          <select
            value={runId ?? ''}
            onChange={(e) => setRunId(e.target.value === '' ? null : Number(e.target.value))}
          >
            <option value="">all judges</option>
            {props.metrics.judges.map((j) => (
              <option key={j.runId} value={j.runId}>
                {j.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Variant{' '}
          <select
            value={variant ?? ''}
            onChange={(e) => setVariant(e.target.value === '' ? null : e.target.value)}
          >
            <option value="">all variants</option>
            {props.metrics.variants.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </label>
        {list.data && (
          <span className="cmp-hint" data-testid="disagreement-total">
            {countOf(list.data.total, 'disagreement')}
            {list.data.total > list.data.rows.length ? `, first ${list.data.rows.length} shown` : ''}
          </span>
        )}
      </div>
      {list.error && <p className="cmp-error">{list.error}</p>}
      {!list.data && !list.error && <Loading what="disagreements" />}
      {list.data && list.data.hidden > 0 && (
        <p className="cmp-hint" data-testid="disagreements-hidden">
          {list.data.total > 0 ? `${list.data.hidden} more` : countOf(list.data.hidden, 'disagreement')} on
          units you have not labelled yet {list.data.hidden === 1 ? 'is' : 'are'} hidden while blind mode is
          on.
        </p>
      )}
      {list.data && list.data.rows.length === 0 && list.data.hidden === 0 && (
        <p className="cmp-hint">No judge disagrees with gold here.</p>
      )}
      {list.data && list.data.rows.length > 0 && (
        <ul className="cmp-list" data-testid="disagreements">
          {list.data.rows.map((d) => (
            <li key={`${d.runId}-${d.targetId}`}>
              <button
                type="button"
                className="cmp-row"
                data-target={d.targetId}
                onClick={() =>
                  props.navigate({ view: 'annotate', datasetId: props.datasetId, targetId: d.targetId })
                }
              >
                <span className="cmp-row-main">{d.unitText}</span>
                <span className="cmp-row-meta">
                  {d.extId} · {d.variant} · {d.judge}: <b className="cmp-no">{d.verdict}</b>, gold{' '}
                  <b className="cmp-yes">{d.gold}</b>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
