import { useState } from 'react'
import type { Preview } from '../../../../shared/contract/judges'
import { isGenerateMethod } from '../../../../shared/judgeValidity'
import { countOf } from '../../../../shared/plural'
import { api } from '../../api'
import { QueryGate } from '../../components/Loading'
import { useEscape } from '../../components/useEscape'
import { useQuery } from '../../hooks'
import type { ViewProps } from '../types'
import { ConfigPanel } from './ConfigPanel'
import { KeysPanel } from './KeysPanel'
import { noLlmReachable } from './llmReach'
import { ModelPanel } from './ModelPanel'
import { RewritesPanel } from './RewritesPanel'
import { RunsPanel } from './RunsPanel'
import { TemplatesPanel } from './TemplatesPanel'
import './judges.css'
import { newConfigStart } from './newConfigStart'

/** Set up providers and judge configs, edit templates, preview and run judges, follow runs live. */
export function JudgesView(props: ViewProps) {
  const configs = useQuery(() => api('judges.configs', {}), [])
  const datasets = useQuery(() => api('datasets.list', {}), [])
  const keys = useQuery(() => api('judges.keys', {}), [])
  const noKeys = keys.data && configs.data ? noLlmReachable(keys.data.providers, configs.data) : false
  const [selected, setSelected] = useState<number | null>(null)
  const [lastSaved, setLastSaved] = useState<number | null>(null)
  const [picked, setPicked] = useState<number | null>(null)
  const [preview, setPreview] = useState<Preview | null>(null)
  const datasetId = props.datasetId ?? picked
  useEscape(() => setPreview(null), preview !== null)
  // Unit-generation configs belong to the Units view; this view lists judges only.
  const judgeConfigs = (configs.data ?? []).filter((c) => !isGenerateMethod(c.method))
  const config = judgeConfigs.find((c) => c.id === selected) ?? null
  return (
    <div className="page" data-testid="judges-view">
      <header className="page-head">
        <h1>Judges</h1>
        {props.datasetId === null && (
          <select
            value={picked ?? ''}
            onChange={(e) => setPicked(e.target.value ? Number(e.target.value) : null)}
            aria-label="Dataset"
          >
            <option value="">Choose a dataset…</option>
            {(datasets.data ?? []).map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
        )}
      </header>
      {configs.error && configs.data && <p className="error-text">{configs.error}</p>}
      <div className="jd-grid">
        <div className="jd-col">
          <KeysPanel />
          <QueryGate query={configs} what="judge configs" detail="Reading the saved judges and their models.">
            {() => (
              <ConfigPanel
                configs={judgeConfigs}
                selected={selected}
                noKeys={noKeys}
                keys={keys.data?.providers ?? []}
                start={newConfigStart(configs.data ?? [], lastSaved)}
                onSelect={setSelected}
                onSaved={(c) => {
                  configs.reload()
                  setLastSaved(c.id)
                  setSelected(c.id)
                }}
              />
            )}
          </QueryGate>
          {config && <ModelPanel config={config} />}
        </div>
        <div className="jd-col">
          {datasetId === null ? (
            <p className="muted">Choose a dataset to preview and start runs.</p>
          ) : (
            <RunsPanel
              datasetId={datasetId}
              datasetName={(datasets.data ?? []).find((d) => d.id === datasetId)?.name ?? ''}
              config={config}
              hasConfigs={judgeConfigs.length > 0}
              onPreview={setPreview}
            />
          )}
          {preview && (
            <section className="card jd-card" aria-label="Request preview">
              <h3>
                {preview.calls.length > 1
                  ? `The ${preview.calls.length} exact requests for the first candidate`
                  : 'Exact request for the first candidate'}
              </h3>
              <p className="muted small">
                {countOf(preview.candidates, 'candidate')}, {countOf(preview.targets, 'target')} in the run.
                Nothing has been sent.
              </p>
              {preview.calls.length === 0 && (
                <p className="muted small">This method makes no provider call.</p>
              )}
              {preview.calls.map((c) => (
                <div key={c.key}>
                  <p className="small" data-testid="preview-path">
                    <strong>{c.path.kind}</strong>: {c.path.reason}
                  </p>
                  {c.reading && (
                    <p className="muted small" data-testid="preview-reading">
                      {c.reading}
                    </p>
                  )}
                  {c.warning && (
                    <p className="error-text small" role="alert" data-testid="preview-warning">
                      {c.warning}
                    </p>
                  )}
                  <pre className="jd-pre" data-testid="preview-body">
                    {JSON.stringify(c.wire, null, 2)}
                  </pre>
                </div>
              ))}
              <button type="button" className="tiny" onClick={() => setPreview(null)}>
                Close preview
              </button>
            </section>
          )}
          <TemplatesPanel />
          {datasetId !== null && <RewritesPanel datasetId={datasetId} />}
        </div>
      </div>
    </div>
  )
}
