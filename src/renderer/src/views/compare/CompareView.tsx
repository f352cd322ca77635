import { memo, useEffect, useMemo, useState } from 'react'
import type { DatasetMetrics } from '../../../../shared/contract/metrics'
import { fmtNum, fmtPctCi } from '../../../../shared/contract/metrics'
import { countOf, formatCount } from '../../../../shared/plural'
import { kappaNote } from '../../../../shared/smallSample'
import { api } from '../../api'
import { LoadFailed, Loading } from '../../components/Loading'
import { OutsidePlanNote } from '../../components/OutsidePlanNote'
import { useEscape } from '../../components/useEscape'
import type { Route, ViewProps } from '../types'
import { keptCompareCharts } from './compareCharts'
import { Disagreements } from './Disagreements'
import { EmptyPanel } from './EmptyPanel'
import { Extras } from './Extras'
import { ItemLevelPanel } from './ItemLevelPanel'
import { JudgeTable } from './JudgeTable'
import { LabelNext } from './LabelNext'
import { ConfusionPanel, McNemarMatrix } from './Matrices'
import { RefcheckerPanel } from './RefcheckerPanel'
import { ChartFigure } from './SvgCharts'
import { useCompareFigures } from './useCompareFigures'
import './compare.css'

type Format = 'md' | 'html' | 'csv' | 'json'

/** Judges (and humans) against gold: figures with intervals, charts, and where they go wrong. */
export function CompareView({ datasetId, navigate }: ViewProps) {
  if (datasetId === null) return <p className="page cmp-hint">Choose a dataset first.</p>
  // Another dataset is another view: nothing of this one's figures carries over.
  return <CompareDataset key={datasetId} datasetId={datasetId} navigate={navigate} />
}

function CompareDataset({ datasetId, navigate }: { datasetId: number; navigate(route: Route): void }) {
  const metrics = useCompareFigures(datasetId)
  const [exportError, setExportError] = useState<string | null>(null)
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
        <ExportMenu disabled={!m} onPick={(f) => void download(f)} />
      </header>
      <OutsidePlanNote datasetId={datasetId} />
      {metrics.error && m && <p className="cmp-error">{metrics.error}</p>}
      {metrics.error && !m && (
        <LoadFailed what="the figures" error={metrics.error} onRetry={metrics.reload} />
      )}
      {exportError && <p className="cmp-error">{exportError}</p>}
      {!m && !metrics.error && (
        <Loading
          what="the figures"
          detail="Scoring every judge run and person against gold, with intervals and tests."
        />
      )}
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
  const { all, charted } = forCharts(m)
  const charts = useMemo(() => keptCompareCharts(charted), [charted])
  const left = all.judges.filter((j) => j.excluded)
  const empty = (what: string) => (
    <EmptyPanel
      what={what}
      datasetId={datasetId}
      hasGold={m.goldTargets > 0}
      onGold={() => navigate({ view: 'annotate', datasetId })}
    />
  )
  const none = charted.judges.length === 0
  // The release's own labels (sources) are never in the people's agreement: say so, and give theirs.
  const among = m.agreement.amongSources
  const withRelease = among !== null || m.agreement.sourcePairs.length > 0
  // People with an hourly rate have a cost too: they alone can fill the cost chart.
  const noCost = none && !m.humans.some((h) => h.cost != null)
  return (
    <>
      <p className="cmp-hint" data-testid="compare-summary">
        {countOf(m.targets, 'target')}, {formatCount(m.goldTargets)} with gold ·{' '}
        {countOf(m.judges.length, 'judge run')} · agreement
        {withRelease ? ' among people' : ''} <PercentFigure agreement={m.agreement} />, Krippendorff's α{' '}
        <AlphaFigure agreement={m.agreement} />
        {among && (
          <span data-testid="release-agreement-summary">
            {' '}
            · among the release’s annotators{' '}
            <PercentFigure
              agreement={{ ...among, minSharedTargets: m.agreement.minSharedTargets }}
              testId=""
            />
            , Krippendorff's α{' '}
            <AlphaFigure agreement={{ ...among, minSharedTargets: m.agreement.minSharedTargets }} />
          </span>
        )}
      </p>
      <section>
        <h2>Judges and humans</h2>
        <JudgeTable metrics={all} />
      </section>
      {left.length > 0 && (
        <section data-testid="left-out">
          <h2>Left out of the charts and tests</h2>
          <ul className="cmp-left-out">
            {left.map((j) => (
              <li key={j.runId}>
                <strong>{j.label}</strong>: {j.excluded?.replace(/\.?$/, '.')} It stays in the table above,
                and the confusion matrix can still show it.
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="cmp-grid">
        <section>
          {none ? (
            <>
              <h2>Error rate by variant</h2>
              {empty('This chart')}
            </>
          ) : (
            <ChartFigure chart={charts.byVariant} dataset={m.dataset} testId="variant-bars" />
          )}
        </section>
        <section>
          {noCost ? (
            <>
              <h2>Cost against error rate</h2>
              {empty('This chart')}
            </>
          ) : (
            <ChartFigure
              chart={charts.costError}
              dataset={m.dataset}
              testId="cost-scatter"
              caption="Ringed dots on the dashed red line form the Pareto front: no other judge is both cheaper and better. Hover a dot for its figures."
            />
          )}
        </section>
      </div>
      {lower && (
        <LowerSections all={all} charted={charted} datasetId={datasetId} navigate={navigate} empty={empty} />
      )}
    </>
  )
})

/**
 * Percent agreement with its Wilson interval over the shared targets, and the mark every
 * agreement figure takes over too few of them (which gives n, so "(n 3)" is not said twice).
 */
type Scope = Pick<
  DatasetMetrics['agreement'],
  'n' | 'percent' | 'percentCi' | 'krippendorffAlpha' | 'minSharedTargets'
>

function PercentFigure({
  agreement: a,
  testId = 'percent-agreement',
}: {
  agreement: Scope
  testId?: string
}) {
  const text = fmtPctCi(a.percent, a.percentCi)
  const note = kappaNote(a.n, a.minSharedTargets)
  return (
    <span data-testid={testId || undefined} title="95% Wilson score interval over the shared targets">
      {note === '' ? (
        `${text} (n ${a.n})`
      ) : (
        <>
          {text}
          <span className="cmp-sub"> · {note}</span>
        </>
      )}
    </span>
  )
}

/**
 * α as the Agreement view shows it (two decimals, the same small-sample mark), so the one figure
 * reads alike in both views; three decimals over three targets claim a precision it lacks.
 */
function AlphaFigure({ agreement: a }: { agreement: Scope }) {
  const note = kappaNote(a.n, a.minSharedTargets)
  return (
    <>
      {fmtNum(a.krippendorffAlpha, 2)}
      {note && (
        <span className="cmp-sub" data-testid="alpha-note">
          {' '}
          · {note}
        </span>
      )}
    </>
  )
}

/**
 * The figures twice: every run (runs that measured nothing last, so each judge keeps one colour
 * everywhere), and only the runs that belong in charts and tests. Kept per figures object, so a
 * reopen on the kept figures hands the charts the very object they were drawn from.
 */
const split = new WeakMap<DatasetMetrics, { all: DatasetMetrics; charted: DatasetMetrics }>()

function forCharts(m: DatasetMetrics): { all: DatasetMetrics; charted: DatasetMetrics } {
  let out = split.get(m)
  if (!out) {
    const judges = [...m.judges.filter((j) => !j.excluded), ...m.judges.filter((j) => j.excluded)]
    out = { all: { ...m, judges }, charted: { ...m, judges: judges.filter((j) => !j.excluded) } }
    split.set(m, out)
  }
  return out
}

const FORMATS: { format: Format; label: string }[] = [
  { format: 'html', label: 'HTML report (charts included)' },
  { format: 'md', label: 'Markdown report' },
  { format: 'csv', label: 'CSV table' },
  { format: 'json', label: 'JSON figures' },
]

/** Every export in one menu, so the page head stays one row at any width. */
function ExportMenu({ disabled, onPick }: { disabled: boolean; onPick(f: Format): void }) {
  const [open, setOpen] = useState(false)
  useEscape(() => setOpen(false), open)
  return (
    <div className="cmp-export">
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
      >
        Export ▾
      </button>
      {open && (
        <div role="menu" className="cmp-export-menu" aria-label="Export">
          {FORMATS.map((f) => (
            <button
              key={f.format}
              type="button"
              role="menuitem"
              onClick={() => {
                setOpen(false)
                onPick(f.format)
              }}
            >
              {f.label}
            </button>
          ))}
        </div>
      )}
    </div>
  )
}

/**
 * True once the browser is idle after the first paint. Everything below the two charts is off
 * screen when the view opens (McNemar alone is runs² cells), so it is laid out after the table
 * and charts are on screen rather than before. The idle wait starts from the first frame's
 * animation callback: asked for straight after the commit, an idle period left before that
 * frame (the commit landing early in a display tick) drew the lower sections, and the forced
 * layout of their pinned tables, ahead of the table and charts (about 0.1 s on a reopen).
 */
function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false)
  useEffect(() => {
    let idle: number | null = null
    const frame = requestAnimationFrame(() => {
      idle = requestIdleCallback(() => setReady(true), { timeout: 250 })
    })
    return () => {
      cancelAnimationFrame(frame)
      if (idle !== null) cancelIdleCallback(idle)
    }
  }, [])
  return ready
}

function LowerSections({
  all,
  charted,
  datasetId,
  navigate,
  empty,
}: {
  all: DatasetMetrics
  charted: DatasetMetrics
  datasetId: number
  navigate(route: Route): void
  empty(what: string): React.ReactNode
}) {
  return (
    <>
      <ItemLevelPanel metrics={charted} datasetId={datasetId} />
      <div className="cmp-grid">
        <section>
          <h2>Confusion matrix</h2>
          {all.judges.length === 0 ? empty('The confusion matrix') : <ConfusionPanel metrics={all} />}
        </section>
        <section>
          <h2>McNemar's test between judges</h2>
          {charted.judges.length === 0 ? empty("McNemar's test") : <McNemarMatrix metrics={charted} />}
        </section>
      </div>
      <Extras metrics={charted} />
      <RefcheckerPanel metrics={charted} />
      <section>
        <h2>Disagreements with gold</h2>
        {charted.judges.length === 0 ? (
          empty('This list')
        ) : (
          <Disagreements datasetId={datasetId} metrics={charted} navigate={navigate} />
        )}
      </section>
      <section>
        <LabelNext datasetId={datasetId} metrics={charted} navigate={navigate} empty={empty} />
      </section>
    </>
  )
}
