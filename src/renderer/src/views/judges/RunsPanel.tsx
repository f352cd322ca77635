import { useEffect, useState } from 'react'
import type { JudgeConfig, Preview } from '../../../../shared/contract/judges'
import { api, onEvent } from '../../api'
import { useQuery } from '../../hooks'
import { type Progress, RunRow } from './RunRow'
import { VerdictImportDialog } from './VerdictImportDialog'

/** Start runs of the selected config, preview the exact request, and follow runs live. */
export function RunsPanel(props: {
  datasetId: number
  /** Named in the import dialog's title. */
  datasetName: string
  config: JudgeConfig | null
  /** Configs are saved, just none chosen: the hint then points at the list instead. */
  hasConfigs?: boolean
  onPreview(p: Preview | null): void
}) {
  const runs = useQuery(() => api('judges.runs', { datasetId: props.datasetId }), [props.datasetId])
  const [live, setLive] = useState<Record<number, Progress>>({})
  const [repeat, setRepeat] = useState(1)
  const [limit, setLimit] = useState('')
  const [mode, setMode] = useState<'sync' | 'batch'>('sync')
  const canBatch = props.config?.provider === 'openai' || props.config?.provider === 'anthropic'
  const [error, setError] = useState<string | null>(null)
  // A judge's verdicts made elsewhere come in as a run, beside the runs started here.
  const [importing, setImporting] = useState(false)
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
      await api('judges.start', {
        datasetId: props.datasetId,
        configId: props.config.id,
        repeat,
        slice,
        mode: canBatch ? mode : 'sync',
      })
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
        {canBatch && (
          <label className="field">
            <span>Mode</span>
            <select
              value={mode}
              onChange={(e) => setMode(e.target.value === 'batch' ? 'batch' : 'sync')}
              aria-label="Run mode"
            >
              <option value="sync">Call by call (results as they come)</option>
              <option value="batch">Batch (about half price, results within 24 h)</option>
            </select>
          </label>
        )}
      </div>
      <div className="jd-actions">
        <button type="button" onClick={preview} disabled={!props.config}>
          Preview request
        </button>
        <button type="button" className="primary" onClick={start} disabled={!props.config}>
          Start run
        </button>
        {!props.config && (
          <span className="muted small">
            {props.hasConfigs
              ? 'Choose one under “Saved configs”, or save the one on the left.'
              : 'Save a judge config first.'}
          </span>
        )}
        <button type="button" onClick={() => setImporting(true)}>
          Import verdicts…
        </button>
        {error && <span className="error-text small">{error}</span>}
      </div>
      {importing && (
        <VerdictImportDialog
          dataset={{ id: props.datasetId, name: props.datasetName }}
          onClose={() => setImporting(false)}
          onImported={reload}
        />
      )}
      {runs.error && <p className="error-text">{runs.error}</p>}
      <div className="table-frame" data-testid="runs-frame">
        <table className="jd-runs" aria-label="Runs">
          <thead>
            <tr>
              <th>Run</th>
              <th>Method</th>
              <th>Progress</th>
              <th>ok / N/A / err</th>
              <th>Calls and cost</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(runs.data ?? []).map((r) => (
              <RunRow key={r.id} run={r} live={live[r.id]} onChanged={reload} />
            ))}
          </tbody>
        </table>
      </div>
      {runs.data?.length === 0 && <p className="muted small">No runs on this dataset yet.</p>}
    </section>
  )
}
