import { memo, useEffect, useMemo, useState } from 'react'
import type { DatasetMetrics } from '../../../../shared/contract/metrics'
import { fmtNum, fmtPct } from '../../../../shared/contract/metrics'
import { api, onEvent } from '../../api'
import { useQuery } from '../../hooks'
import type { Route, ViewProps } from '../types'
import { compareCharts } from './compareCharts'
import { Disagreements } from './Disagreements'
import { Extras } from './Extras'
import { ItemLevelPanel } from './ItemLevelPanel'
import { JudgeTable } from './JudgeTable'
import { LabelNext } from './LabelNext'
import { ConfusionPanel, McNemarMatrix } from './Matrices'
import { RefcheckerPanel } from './RefcheckerPanel'
import { ChartFigure } from './SvgCharts'
import './compare.css'

type Format = 'md' | 'html' | 'csv' | 'json'

/** Judges (and humans) against gold: figures with intervals, charts, and where they go wrong. */
export function CompareView({ datasetId, navigate }: ViewProps) {
  const metrics = useQuery(
    async () => (datasetId === null ? undefined : api('metrics.compare', { datasetId })),
    [datasetId],
  )
  const { reload } = metrics
  useEffect(() => {
    const offs = [
      onEvent('labels.changed', (e) => e.datasetId === datasetId && reload()),
      // Figures change when a run stops, not at every call: refreshing per tick would recompute
      // everything while a judge is still running.
      onEvent('runs.progress', (e) => e.status !== 'running' && e.status !== 'queued' && reload()),
      onEvent('workspace.changed', () => reload()),
    ]
    return () => {
      for (const off of offs) off()
    }
  }, [datasetId, reload])
  const [exportError, setExportError] = useState<string | null>(null)
  if (datasetId === null) return <p className="page cmp-hint">Choose a dataset first.</p>
  const m = metrics.data
  const download = async (format: Format) => {
    setExportError(null)
    try {
      const r = await api('metrics.report', { datasetId, format })
      const url = URL.createObjectURL(new Blob([r.text], { type: r.mime }))
      const a = document.createElement('a')
      a.href = url
      a.download = r.fileName
      a.click()
      setTimeout(() => URL.revokeObjectURL(url), 1000)
    } catch (e) {
      setExportError(e instanceof Error ? e.message : String(e))
    }
  }
  return (
    <div className="page cmp-view" data-testid="compare-view">
      <header className="page-head">
        <div>
          <h1>Compare</h1>
          <p className="muted">
            Every judge run against the human gold, with annotators scored the same way as the ceiling to read
            them against.
          </p>
        </div>
        <div className="cmp-actions">
          {(['html', 'md', 'csv', 'json'] as const).map((f) => (
            <button key={f} type="button" onClick={() => download(f)} disabled={!m}>
              Export {f.toUpperCase()}
            </button>
          ))}
        </div>
      </header>
      {metrics.error && <p className="cmp-error">{metrics.error}</p>}
      {exportError && <p className="cmp-error">{exportError}</p>}
      {!m && !metrics.error && <p className="cmp-hint">Computing…</p>}
      {m && <CompareBody metrics={m} datasetId={datasetId} navigate={navigate} />}
    </div>
  )
}

/**
 * Everything drawn from the figures. Memoised: the shell re-renders the view whenever its own
 * queries answer (dataset names, annotators), and redrawing every chart for that would cost
 * more than computing the figures did.
 */
const CompareBody = memo(function CompareBody({
  metrics: m,
  datasetId,
  navigate,
}: {
  metrics: DatasetMetrics
  datasetId: number
  navigate(route: Route): void
}) {
  const lower = useAfterFirstPaint()
  const charts = useMemo(() => compareCharts(m), [m])
  return (
    <>
      <p className="cmp-hint" data-testid="compare-summary">
        {m.targets} targets, {m.goldTargets} with gold · {m.judges.length} judge runs · agreement{' '}
        {fmtPct(m.agreement.percent)} (n {m.agreement.n}), Krippendorff's α{' '}
        {fmtNum(m.agreement.krippendorffAlpha)}
      </p>
      <section>
        <h2>Judges and humans</h2>
        <JudgeTable metrics={m} />
      </section>
      <div className="cmp-grid">
        <section>
          <ChartFigure chart={charts.byVariant} dataset={m.dataset} testId="variant-bars" />
        </section>
        <section>
          <ChartFigure
            chart={charts.costError}
            dataset={m.dataset}
            testId="cost-scatter"
            caption="Ringed dots on the dashed red line form the Pareto front: no other judge is both cheaper and better. Hover a dot for its figures."
          />
        </section>
      </div>
      {lower && <LowerSections metrics={m} datasetId={datasetId} navigate={navigate} />}
    </>
  )
})

/**
 * True once the browser is idle after the first paint. Everything below the two charts is off
 * screen when the view opens (McNemar alone is runs² cells), so it is laid out after the table
 * and charts are on screen rather than before.
 */
function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false)
  useEffect(() => {
    const id = requestIdleCallback(() => setReady(true), { timeout: 250 })
    return () => cancelIdleCallback(id)
  }, [])
  return ready
}

function LowerSections({
  metrics: m,
  datasetId,
  navigate,
}: {
  metrics: DatasetMetrics
  datasetId: number
  navigate(route: Route): void
}) {
  return (
    <>
      <ItemLevelPanel metrics={m} datasetId={datasetId} />
      <div className="cmp-grid">
        <section>
          <h2>Confusion matrix</h2>
          <ConfusionPanel metrics={m} />
        </section>
        <section>
          <h2>McNemar's test between judges</h2>
          <McNemarMatrix metrics={m} />
        </section>
      </div>
      <Extras metrics={m} />
      <RefcheckerPanel metrics={m} />
      <section>
        <h2>Disagreements with gold</h2>
        <Disagreements datasetId={datasetId} metrics={m} navigate={navigate} />
      </section>
      <section>
        <LabelNext datasetId={datasetId} metrics={m} navigate={navigate} />
      </section>
    </>
  )
}
