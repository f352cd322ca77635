import { useState } from 'react'
import { type DatasetMetrics, fmtP } from '../../../../shared/contract/metrics'
import { countOf } from '../../../../shared/plural'

/** The selected judge's confusion matrix, binary and in the schema's own labels. */
export function ConfusionPanel({ metrics }: { metrics: DatasetMetrics }) {
  // Runs that measured nothing come last in the list and are never the default.
  const [runId, setRunId] = useState<number | null>(metrics.judges[0]?.runId ?? null)
  const judge = metrics.judges.find((j) => j.runId === runId) ?? metrics.judges[0]
  if (!judge) return null
  const grid = (labels: string[], m: number[][], testId: string, name: string) => (
    <table
      className="cmp-matrix"
      data-testid={testId}
      aria-label={`${name} confusion matrix of ${judge.label}`}
    >
      <thead>
        <tr>
          <th>gold ↓ · judge →</th>
          {labels.map((l) => (
            <th key={l}>{l}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {m.map((row, g) => (
          <tr key={labels[g]}>
            <th>{labels[g]}</th>
            {row.map((c, j) => (
              <td key={labels[j]} className={g === j ? 'cmp-diag' : c > 0 ? 'cmp-off' : undefined}>
                {c}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
  return (
    <div className="cmp-confusion">
      <label>
        Judge{' '}
        <select value={judge.runId} onChange={(e) => setRunId(Number(e.target.value))}>
          {metrics.judges.map((j) => (
            <option key={j.runId} value={j.runId}>
              {j.label}
              {j.excluded ? ' (measured nothing)' : ''}
            </option>
          ))}
        </select>
      </label>
      <div className="cmp-matrices">
        {grid(['supported', 'unsupported'], judge.confusion.binary, 'confusion-binary', 'Binary')}
        {judge.confusion.labels.length > 0 &&
          grid(judge.confusion.labels, judge.confusion.full, 'confusion-full', 'Full')}
      </div>
    </div>
  )
}

/** McNemar's exact p-value for every pair of judges (on the targets both judged). */
export function McNemarMatrix({ metrics }: { metrics: DatasetMetrics }) {
  const judges = metrics.judges
  if (judges.length < 2) return <p className="cmp-hint">McNemar's test needs at least two judge runs.</p>
  // One lookup per cell: with n judges a scan of the pairs per cell would cost n⁴.
  const pairs = new Map(
    metrics.mcnemar.flatMap((r) => [[`${r.a}:${r.b}`, r] as const, [`${r.b}:${r.a}`, r] as const]),
  )
  const cell = (a: number, b: number) => pairs.get(`${a}:${b}`)
  return (
    <div className="table-frame">
      <table
        className="cmp-matrix"
        data-testid="mcnemar"
        aria-label="McNemar's test between judges (p-values)"
      >
        <thead>
          <tr>
            <th />
            {judges.map((j) => (
              <th key={j.runId} title={j.label}>
                #{j.runId}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {judges.map((a) => (
            <tr key={a.runId}>
              <th title={a.label}>{a.label}</th>
              {judges.map((b) => {
                if (a.runId === b.runId) return <td key={b.runId} className="cmp-diag" />
                const r = cell(a.runId, b.runId)
                const title = r
                  ? `${countOf(r.n, 'target')} both judged; only #${r.a} right on ${r.aOnly}, only #${r.b} right on ${r.bOnly}`
                  : ''
                return (
                  <td key={b.runId} title={title} className={r && r.pValue < 0.05 ? 'cmp-sig' : undefined}>
                    {r ? fmtP(r.pValue) : '—'}
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="cmp-hint">
        p below 0.05 (shaded): the two judges' error rates differ by more than chance.
      </p>
    </div>
  )
}
