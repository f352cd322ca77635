import { type RefObject, useRef, useState } from 'react'
import type { DatasetMetrics } from '../../../../shared/contract/metrics'
import { chartFileName, type LegendEntry, pngFromSvg, saveBlob, standaloneSvg } from './chartFile'
import { judgeColour, linearAxis, pctAxis, pctTick } from './palette'

/*
 * The two charts at the top of the view are drawn as plain SVG: with twenty runs the chart
 * library spent most of the view's opening time laying out bars, legend and tooltips, while
 * the data here is a few dozen bars and twenty dots. The SVG scales with its box through its
 * viewBox, so nothing has to measure the page before drawing; hovering a mark shows its figures
 * through the SVG's own <title>.
 */

const W = 560
const H = 250
const M = { top: 10, right: 26, bottom: 34, left: 48 }
const PW = W - M.left - M.right
const PH = H - M.top - M.bottom

const fmtPct1 = (v: number) => `${(v * 100).toFixed(1)}%`

/** Horizontal grid lines with their labels on the left. */
function YGrid({ ticks, max, fmt }: { ticks: number[]; max: number; fmt(v: number): string }) {
  return (
    <g>
      {ticks.map((t) => {
        const y = M.top + PH - (t / max) * PH
        return (
          <g key={t}>
            <line x1={M.left} x2={W - M.right} y1={y} y2={y} className="cmp-grid-line" />
            <text x={M.left - 6} y={y} dy="0.32em" textAnchor="end" className="cmp-tick">
              {fmt(t)}
            </text>
          </g>
        )
      })}
    </g>
  )
}

/**
 * "Save SVG" / "Save PNG" for the chart inside `figure`. The file carries the chart's title and
 * legend, which are HTML around the chart on screen, and is named after the dataset and chart.
 */
export function ChartSave(props: {
  figure: RefObject<HTMLElement | null>
  dataset: string
  chart: string
  title: string
  legend?: readonly LegendEntry[]
}) {
  const [error, setError] = useState<string | null>(null)
  const save = async (ext: 'svg' | 'png') => {
    setError(null)
    const svg = props.figure.current?.querySelector('svg')
    if (!svg) return
    try {
      const file = standaloneSvg(svg, { title: props.title, legend: props.legend })
      const blob = ext === 'svg' ? new Blob([file.text], { type: 'image/svg+xml' }) : await pngFromSvg(file)
      saveBlob(blob, chartFileName(props.dataset, props.chart, ext))
    } catch (e) {
      setError(`Could not save the chart: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  return (
    <div className="cmp-actions" data-testid={`save-${props.chart}`}>
      {(['svg', 'png'] as const).map((ext) => (
        <button
          key={ext}
          type="button"
          title={`Save “${props.title}” as ${ext.toUpperCase()}`}
          onClick={() => save(ext)}
        >
          Save {ext.toUpperCase()}
        </button>
      ))}
      {error && <p className="cmp-error">{error}</p>}
    </div>
  )
}

function judgeLegend(metrics: DatasetMetrics): LegendEntry[] {
  return metrics.judges.map((j, k) => ({ label: j.label, colour: judgeColour(k) }))
}

/** Which judge each colour stands for: plain HTML, so it wraps and costs nothing to lay out. */
export function JudgeLegend({ metrics }: { metrics: DatasetMetrics }) {
  return (
    <ul className="cmp-legend" data-testid="judge-legend">
      {metrics.judges.map((j, k) => (
        <li key={j.runId}>
          <span className="cmp-swatch" style={{ background: judgeColour(k) }} />
          {j.label}
        </li>
      ))}
    </ul>
  )
}

/** Error rate by candidate variant, one bar per judge: the shape of the FaaF result tables. */
export function VariantBars({ metrics }: { metrics: DatasetMetrics }) {
  const figure = useRef<HTMLElement>(null)
  const { judges, variants } = metrics
  if (judges.length === 0 || variants.length === 0) return null
  const axis = pctAxis(
    Math.max(0, ...judges.flatMap((j) => Object.values(j.byVariant).map((f) => f.errorRate ?? 0))),
  )
  const groupW = PW / variants.length
  const pad = Math.min(groupW * 0.15, 24)
  const barW = (groupW - 2 * pad) / judges.length
  return (
    <figure className="cmp-figure" ref={figure}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="cmp-chart"
        data-testid="variant-bars"
        role="img"
        aria-label="Error rate by variant, one bar per judge run"
      >
        <YGrid ticks={axis.ticks} max={axis.max} fmt={pctTick} />
        {variants.map((v, i) => {
          const x0 = M.left + i * groupW
          return (
            <g key={v}>
              {judges.map((j, k) => {
                const er = j.byVariant[v]?.errorRate ?? null
                if (er === null) return null
                const h = (er / axis.max) * PH
                return (
                  <rect
                    key={j.runId}
                    x={x0 + pad + k * barW}
                    y={M.top + PH - h}
                    width={Math.max(barW - (barW > 4 ? 1 : 0), 0.5)}
                    height={Math.max(h, 0.5)}
                    fill={judgeColour(k)}
                  >
                    <title>{`${j.label} · ${v}: ${fmtPct1(er)}`}</title>
                  </rect>
                )
              })}
              <text x={x0 + groupW / 2} y={H - M.bottom + 16} textAnchor="middle" className="cmp-tick">
                {v.length > 24 ? `${v.slice(0, 23)}…` : v}
                <title>{v}</title>
              </text>
            </g>
          )
        })}
        <line x1={M.left} x2={W - M.right} y1={M.top + PH} y2={M.top + PH} className="cmp-axis-line" />
      </svg>
      <JudgeLegend metrics={metrics} />
      <ChartSave
        figure={figure}
        dataset={metrics.dataset}
        chart="error-by-variant"
        title="Error rate by variant"
        legend={judgeLegend(metrics)}
      />
    </figure>
  )
}

/** Cost against error rate; the dashed red line joins the Pareto front (nothing cheaper and better). */
export function CostScatter({ metrics }: { metrics: DatasetMetrics }) {
  const figure = useRef<HTMLElement>(null)
  const front = new Set(metrics.paretoFront)
  const points = metrics.judges.flatMap((j, k) =>
    j.errorRate === null
      ? []
      : [
          {
            runId: j.runId,
            cost: j.cost,
            er: j.errorRate,
            label: j.label,
            colour: judgeColour(k),
            onFront: front.has(j.runId),
          },
        ],
  )
  if (points.length === 0) return <p className="cmp-hint">No judge has an error rate yet.</p>
  const ya = pctAxis(Math.max(...points.map((p) => p.er)))
  const xa = linearAxis(Math.max(...points.map((p) => p.cost)))
  const step = xa.ticks[1] ?? 1
  const digits = Math.min(6, Math.max(0, -Math.floor(Math.log10(step) + 1e-9)))
  const px = (c: number) => M.left + (c / xa.max) * PW
  const py = (e: number) => M.top + PH - (e / ya.max) * PH
  const frontLine = points.filter((p) => p.onFront).sort((a, b) => a.cost - b.cost)
  return (
    <figure className="cmp-figure" ref={figure}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="cmp-chart"
        data-testid="cost-scatter"
        role="img"
        aria-label="Cost against error rate per judge run, with the Pareto front"
      >
        <YGrid ticks={ya.ticks} max={ya.max} fmt={pctTick} />
        {xa.ticks.map((t) => (
          <g key={t}>
            <line x1={px(t)} x2={px(t)} y1={M.top} y2={M.top + PH} className="cmp-grid-line" />
            <text x={px(t)} y={H - M.bottom + 16} textAnchor="middle" className="cmp-tick">
              ${t.toFixed(digits)}
            </text>
          </g>
        ))}
        <text x={W - M.right} y={H - 4} textAnchor="end" className="cmp-tick">
          cost
        </text>
        {frontLine.length > 1 && (
          <polyline
            points={frontLine.map((p) => `${px(p.cost)},${py(p.er)}`).join(' ')}
            className="cmp-front-line"
          />
        )}
        {points.map((p) => (
          <circle
            key={p.runId}
            cx={px(p.cost)}
            cy={py(p.er)}
            r={p.onFront ? 6 : 5}
            fill={p.colour}
            className={p.onFront ? 'cmp-front-dot' : 'cmp-dot'}
          >
            <title>{`${p.label}\n$${p.cost.toFixed(4)} · ${fmtPct1(p.er)}${p.onFront ? ' · Pareto front' : ''}`}</title>
          </circle>
        ))}
      </svg>
      <p className="cmp-hint">
        Colours as in the legend; ringed dots on the dashed red line form the Pareto front. Hover a dot for
        its figures.
      </p>
      <ChartSave
        figure={figure}
        dataset={metrics.dataset}
        chart="cost-error"
        title="Cost against error rate (ringed: Pareto front)"
        legend={judgeLegend(metrics)}
      />
    </figure>
  )
}
