import { useEffect, useState } from 'react'
import type { EventPayload } from '../../../../shared/contract'
import type { JudgeConfig, Preview, RunInfo } from '../../../../shared/contract/judges'
import { api, onEvent } from '../../api'
import { useQuery } from '../../hooks'

type Progress = EventPayload<'runs.progress'>

function eta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return ''
  if (seconds < 60) return `${Math.ceil(seconds)} s left`
  return `${Math.ceil(seconds / 60)} min left`
}

function RunRow({ run, live, onChanged }: { run: RunInfo; live: Progress | undefined; onChanged(): void }) {
  const [error, setError] = useState<string | null>(null)
  const act = (name: 'judges.pause' | 'judges.cancel' | 'judges.resume') => async () => {
    try {
      await api(name, { runId: run.id })
      onChanged()
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }
  const improve = async () => {
    try {
      await api('judges.improve', { runId: run.id, rounds: 1 })
      onChanged()
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }
  const status = live && run.active ? live.status : run.status
  const done = live && run.active ? live.done : run.status === 'done' ? run.total : null
  const total = live && run.active ? live.total : run.total
  const pct = total > 0 && done !== null ? Math.round((done / total) * 100) : run.status === 'done' ? 100 : 0
  const interrupted = run.status === 'running' && !run.active
  const cost = live && run.active ? live.cost : run.cost
  return (
    <tr data-testid={`run-${run.id}`}>
      <td>
        #{run.id}
        {run.repeatIndex > 0 ? ` (repeat ${run.repeatIndex + 1})` : ''}
        <div className="muted">{run.kind}</div>
      </td>
      <td>
        {run.method}
        <div className="muted">
          {run.provider}/{run.model}
        </div>
      </td>
      <td className="jd-progress">
        <span className="bar" role="progressbar" aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100}>
          <span className={status === 'done' ? 'done' : ''} style={{ width: `${pct}%` }} />
        </span>
        <div className="muted" data-testid="run-status">
          {interrupted ? 'interrupted' : status} {done !== null ? `${done}/${total}` : ''}{' '}
          {run.active ? eta(live?.etaSeconds ?? null) : ''}
        </div>
        {run.error && <div className="error-text">{run.error}</div>}
        {error && <div className="error-text">{error}</div>}
      </td>
      <td className="num">
        {run.verdicts} / {run.na} / {run.errors}
      </td>
      <td className="num">
        {run.calls} ({run.cached} cached)
        <div className="muted">
          {run.promptTokens}+{run.completionTokens} tok
        </div>
      </td>
      <td className="num" data-testid="run-cost">
        {cost.toFixed(4)}
      </td>
      <td>
        <div className="row">
          {run.active && (
            <button type="button" className="tiny" onClick={act('judges.pause')}>
              Pause
            </button>
          )}
          {!run.active && ['paused', 'failed', 'queued', 'running'].includes(run.status) && (
            <button type="button" className="tiny" onClick={act('judges.resume')}>
              Resume
            </button>
          )}
          {run.status !== 'done' && run.status !== 'cancelled' && (
            <button type="button" className="tiny" onClick={act('judges.cancel')}>
              Cancel
            </button>
          )}
          {run.status === 'done' && run.kind === 'judge' && run.method === 'dcr' && (
            <button type="button" className="tiny" onClick={improve}>
              Improve (RAI)
            </button>
          )}
        </div>
      </td>
    </tr>
  )
}

/** Start runs of the selected config, preview the exact request, and follow runs live. */
export function RunsPanel(props: {
  datasetId: number
  config: JudgeConfig | null
  onPreview(p: Preview | null): void
}) {
  const runs = useQuery(() => api('judges.runs', { datasetId: props.datasetId }), [props.datasetId])
  const [live, setLive] = useState<Record<number, Progress>>({})
  const [repeat, setRepeat] = useState(1)
  const [limit, setLimit] = useState('')
  const [error, setError] = useState<string | null>(null)
  const reload = runs.reload
  useEffect(
    () =>
      onEvent('runs.progress', (p) => {
        setLive((m) => ({ ...m, [p.runId]: p }))
        if (p.status !== 'running') reload()
      }),
    [reload],
  )
  useEffect(() => {
    const t = setInterval(reload, 2000)
    return () => clearInterval(t)
  }, [reload])
  const slice = limit.trim() ? { limit: Number(limit) } : {}
  const start = async () => {
    if (!props.config) return
    setError(null)
    try {
      await api('judges.start', { datasetId: props.datasetId, configId: props.config.id, repeat, slice })
      reload()
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }
  const preview = async () => {
    if (!props.config) return
    setError(null)
    try {
      props.onPreview(
        await api('judges.preview', { datasetId: props.datasetId, configId: props.config.id, slice }),
      )
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }
  return (
    <section className="card jd-card" aria-label="Runs">
      <h3>Runs</h3>
      <div className="row">
        <label className="field">
          <span>Repeat</span>
          <input
            type="number"
            min={1}
            max={20}
            value={repeat}
            onChange={(e) => setRepeat(Math.max(1, Number(e.target.value) || 1))}
            aria-label="Repeat"
          />
        </label>
        <label className="field">
          <span>Candidates (blank = all)</span>
          <input
            value={limit}
            onChange={(e) => setLimit(e.target.value.replace(/\D/g, ''))}
            aria-label="Candidate limit"
          />
        </label>
      </div>
      <div className="jd-actions">
        <button type="button" onClick={preview} disabled={!props.config}>
          Preview request
        </button>
        <button type="button" className="primary" onClick={start} disabled={!props.config}>
          Start run
        </button>
        {!props.config && <span className="muted small">Save a judge config first.</span>}
        {error && <span className="error-text small">{error}</span>}
      </div>
      {runs.error && <p className="error-text">{runs.error}</p>}
      <table className="jd-runs">
        <thead>
          <tr>
            <th>Run</th>
            <th>Method</th>
            <th>Progress</th>
            <th>ok / N/A / err</th>
            <th>Calls</th>
            <th>Cost</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(runs.data ?? []).map((r) => (
            <RunRow key={r.id} run={r} live={live[r.id]} onChanged={reload} />
          ))}
        </tbody>
      </table>
      {runs.data?.length === 0 && <p className="muted small">No runs on this dataset yet.</p>}
    </section>
  )
}
