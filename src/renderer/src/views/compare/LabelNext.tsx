import type { ReactNode } from 'react'
import type { DatasetMetrics } from '../../../../shared/contract/metrics'
import { countOf } from '../../../../shared/plural'
import { api } from '../../api'
import { LoadFailed, Loading } from '../../components/Loading'
import { useQuery } from '../../hooks'
import { useViewer } from '../../settings'
import type { Route } from '../types'
import { NarrowingChart } from './Charts'

/**
 * What to label next: targets without gold where the judges split most. A label there moves
 * the judges' figures most, so their intervals narrow with fewer labels.
 */
export function LabelNext(props: {
  datasetId: number
  metrics: DatasetMetrics
  navigate(route: Route): void
  empty(what: string): ReactNode
}) {
  const viewer = useViewer()
  const next = useQuery(
    () => api('metrics.labelNext', { datasetId: props.datasetId, limit: 25, viewer }),
    [props.datasetId, props.metrics, viewer],
  )
  // Only the runs charted elsewhere: a failed run's interval would only be noise here.
  const charted = new Set(props.metrics.judges.map((j) => j.runId))
  const narrowing = (next.data?.narrowing ?? []).filter((s) => charted.has(s.runId))
  if (next.error) return <LoadFailed what="what to label next" error={next.error} onRetry={next.reload} />
  if (!next.data)
    return (
      <Loading
        what="what to label next"
        detail="Ranking the targets without gold where the judges split most."
      />
    )
  return (
    <div className="cmp-next">
      <div>
        <h3>Label next</h3>
        {next.data.queue.length === 0 ? (
          <p className="cmp-hint">
            {viewer.blind
              ? 'Blind mode is on: where the judges split is their verdicts in another form, so this list stays hidden.'
              : 'Every target the judges saw already has gold.'}
          </p>
        ) : (
          <ol className="cmp-list" data-testid="label-next">
            {next.data.queue.map((q) => (
              <li key={q.targetId}>
                <button
                  type="button"
                  className="cmp-row"
                  onClick={() =>
                    props.navigate({ view: 'annotate', datasetId: props.datasetId, targetId: q.targetId })
                  }
                >
                  <span className="cmp-row-main">{q.unitText}</span>
                  <span className="cmp-row-meta">
                    {q.extId} · {q.variant} · {countOf(q.judges, 'judge')},{' '}
                    {Math.round(q.unsupportedShare * 100)}% say unsupported
                  </span>
                </button>
              </li>
            ))}
          </ol>
        )}
      </div>
      <div>
        <h3>Interval width as gold accrued</h3>
        {narrowing.length === 0 || narrowing.every((s) => s.points.length === 0) ? (
          props.empty('The interval-width chart')
        ) : (
          <NarrowingChart series={narrowing} dataset={props.metrics.dataset} />
        )}
      </div>
    </div>
  )
}
