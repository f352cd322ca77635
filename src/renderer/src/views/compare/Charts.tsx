import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  ZAxis,
} from 'recharts'
import type { DatasetMetrics, NarrowingSeries } from '../../../../shared/contract/metrics'

const PALETTE = ['#4f5bd5', '#e07b39', '#3aa55d', '#c44e52', '#8c6bb1', '#7f7f7f', '#bcbd22', '#17becf']
const pctTick = (v: number) => `${Number((v * 100).toFixed(1))}%`

/** A percentage axis with round steps (2.5%, 5%, 10%, 20% or 25%) and at most five of them. */
function pctAxis(max: number): { domain: [number, number]; ticks: number[] } {
  const step = [0.025, 0.05, 0.1, 0.2, 0.25].find((s) => Math.ceil(max / s - 1e-9) <= 5) ?? 0.25
  const n = Math.max(1, Math.ceil(max / step - 1e-9))
  const ticks = Array.from({ length: n + 1 }, (_, k) => k * step)
  return { domain: [0, n * step], ticks }
}

/** Error rate by candidate variant, one bar per judge: the shape of the FaaF result tables. */
export function VariantBars({ metrics }: { metrics: DatasetMetrics }) {
  const data = metrics.variants.map((v) => {
    const row: Record<string, string | number | null> = { variant: v }
    for (const j of metrics.judges) row[`run${j.runId}`] = j.byVariant[v]?.errorRate ?? null
    return row
  })
  if (metrics.judges.length === 0) return null
  const axis = pctAxis(
    Math.max(0, ...metrics.judges.flatMap((j) => Object.values(j.byVariant).map((f) => f.errorRate ?? 0))),
  )
  return (
    <ResponsiveContainer width="100%" height={280}>
      <BarChart data={data} margin={{ top: 8, right: 12, bottom: 4, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="variant" />
        <YAxis tickFormatter={pctTick} domain={axis.domain} ticks={axis.ticks} />
        <Tooltip formatter={(v) => (typeof v === 'number' ? `${(v * 100).toFixed(1)}%` : 'not defined')} />
        <Legend />
        {metrics.judges.map((j, k) => (
          <Bar
            key={j.runId}
            dataKey={`run${j.runId}`}
            name={j.label}
            fill={PALETTE[k % PALETTE.length]}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  )
}

/** Cost against error rate; red points are the Pareto front (nothing is both cheaper and better). */
export function CostScatter({ metrics }: { metrics: DatasetMetrics }) {
  const front = new Set(metrics.paretoFront)
  const points = metrics.judges
    .filter((j) => j.errorRate !== null)
    .map((j) => ({ cost: j.cost, er: j.errorRate!, label: j.label, onFront: front.has(j.runId) }))
  const frontLine = points.filter((p) => p.onFront).sort((a, b) => a.cost - b.cost)
  if (points.length === 0) return <p className="cmp-hint">No judge has an error rate yet.</p>
  const axis = pctAxis(Math.max(...points.map((p) => p.er)))
  return (
    <ResponsiveContainer width="100%" height={280}>
      <ScatterChart margin={{ top: 8, right: 16, bottom: 16, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis type="number" dataKey="cost" name="cost" tickFormatter={(v: number) => `$${v.toFixed(3)}`} />
        <YAxis
          type="number"
          dataKey="er"
          name="error rate"
          tickFormatter={pctTick}
          domain={axis.domain}
          ticks={axis.ticks}
        />
        <ZAxis range={[60, 60]} />
        <Tooltip
          content={({ payload }) => {
            const p = payload?.[0]?.payload as (typeof points)[number] | undefined
            return p ? (
              <div className="cmp-tip">
                {p.label}
                <br />${p.cost.toFixed(4)} · {(p.er * 100).toFixed(1)}%{p.onFront ? ' · Pareto front' : ''}
              </div>
            ) : null
          }}
        />
        <Scatter
          name="judges"
          data={points.filter((p) => !p.onFront)}
          fill="#4f5bd5"
          isAnimationActive={false}
        />
        <Scatter
          name="Pareto front"
          data={frontLine}
          fill="#c44e52"
          line={{ stroke: '#c44e52', strokeDasharray: '4 3' }}
          isAnimationActive={false}
        />
      </ScatterChart>
    </ResponsiveContainer>
  )
}

/** Width of each judge's ER interval as gold accrued. */
export function NarrowingChart({ series }: { series: NarrowingSeries[] }) {
  if (series.length === 0 || series.every((s) => s.points.length === 0)) return null
  const golds = [...new Set(series.flatMap((s) => s.points.map((p) => p.gold)))].sort((a, b) => a - b)
  const data = golds.map((g) => {
    const row: Record<string, number | null> = { gold: g }
    for (const s of series) row[`run${s.runId}`] = s.points.find((p) => p.gold === g)?.width ?? null
    return row
  })
  return (
    <ResponsiveContainer width="100%" height={220}>
      <LineChart data={data} margin={{ top: 8, right: 12, bottom: 4, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis
          dataKey="gold"
          label={{ value: 'targets with gold', position: 'insideBottomRight', offset: -2 }}
        />
        <YAxis tickFormatter={pctTick} />
        <Tooltip
          formatter={(v) => (typeof v === 'number' ? `±${((v * 100) / 2).toFixed(1)} pts` : 'not defined')}
        />
        {series.map((s, k) => (
          <Line
            key={s.runId}
            dataKey={`run${s.runId}`}
            name={s.label}
            stroke={PALETTE[k % PALETTE.length]}
            dot={false}
            isAnimationActive={false}
            connectNulls
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  )
}
