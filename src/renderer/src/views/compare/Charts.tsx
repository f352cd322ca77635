import { useRef } from 'react'
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { NarrowingSeries } from '../../../../shared/contract/metrics'
import { judgeColour, pctTick } from './palette'
import { ChartSave } from './SvgCharts'

/** Width of each judge's ER interval as gold accrued; `dataset` names the saved chart files. */
export function NarrowingChart({
  series,
  dataset = 'dataset',
}: {
  series: NarrowingSeries[]
  dataset?: string
}) {
  const figure = useRef<HTMLDivElement>(null)
  if (series.length === 0 || series.every((s) => s.points.length === 0)) return null
  const golds = [...new Set(series.flatMap((s) => s.points.map((p) => p.gold)))].sort((a, b) => a - b)
  const data = golds.map((g) => {
    const row: Record<string, number | null> = { gold: g }
    for (const s of series) row[`run${s.runId}`] = s.points.find((p) => p.gold === g)?.width ?? null
    return row
  })
  return (
    <div ref={figure}>
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
              stroke={judgeColour(k)}
              dot={false}
              isAnimationActive={false}
              connectNulls
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
      <ChartSave
        figure={figure}
        dataset={dataset}
        chart="interval-width"
        title="Error-rate interval width as gold accrued"
        legend={series.map((s, k) => ({ label: s.label, colour: judgeColour(k) }))}
      />
    </div>
  )
}
