import { useState } from 'react'
import {
  type ConfigDraft,
  configProblems,
  type LlmProviderName,
  PROVIDER_GENERATE_METHODS,
} from '../../../../shared/judgeValidity'
import { api } from '../../api'
import { useEscape } from '../../components/useEscape'

const LLM: LlmProviderName[] = ['openai', 'anthropic', 'openai-compatible']

const WHAT: Record<string, string> = {
  facts: 'facts from each question and reference (FaaF)',
  questions: 'a question for each item that has none (pair datasets)',
  triplets: 'claim triplets from each answer (RefChecker)',
}

/**
 * Unit generation with a model: facts, questions or claim triplets, made by an extraction run.
 * It lives here, beside the units it makes, not among the judges; sentence splitting needs no
 * model and has its own button.
 */
export function GeneratePanel({
  datasetId,
  onStarted,
}: {
  datasetId: number
  onStarted(text: string): void
}) {
  const [draft, setDraft] = useState<ConfigDraft>({
    name: '',
    provider: 'openai',
    model: '',
    baseUrl: null,
    method: 'facts',
  })
  const [error, setError] = useState<string | null>(null)
  const [open, setOpen] = useState(false)
  useEscape(() => setOpen(false), open)
  const methods = PROVIDER_GENERATE_METHODS[draft.provider].filter((m) => m !== 'sentences')
  const named = { ...draft, name: `${draft.method} · ${draft.model}` }
  const missing = configProblems(named)
  const start = async () => {
    setError(null)
    try {
      const configs = await api('judges.configs', {})
      const same = configs.find(
        (c) =>
          c.provider === draft.provider &&
          c.model === draft.model &&
          c.method === draft.method &&
          (c.baseUrl ?? null) === (draft.baseUrl || null),
      )
      const config =
        same ??
        (await api('judges.saveConfig', {
          ...named,
          baseUrl: draft.baseUrl || null,
          method: draft.method,
          settings: {},
        }))
      const { runIds } = await api('judges.start', { datasetId, configId: config.id })
      onStarted(`Started run #${runIds[0]}: ${WHAT[draft.method] ?? draft.method}. Units appear as it goes.`)
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }
  return (
    <details
      className="units-generate"
      data-testid="units-generate"
      data-open={open}
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>Generate units with a model…</summary>
      <div className="row">
        <label className="field">
          <span>Provider</span>
          <select
            aria-label="Generation provider"
            value={draft.provider}
            onChange={(e) => setDraft({ ...draft, provider: e.target.value as LlmProviderName })}
          >
            {LLM.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Model</span>
          <input
            aria-label="Generation model"
            value={draft.model}
            onChange={(e) => setDraft({ ...draft, model: e.target.value })}
          />
        </label>
        {draft.provider === 'openai-compatible' && (
          <label className="field">
            <span>Base URL</span>
            <input
              aria-label="Generation base URL"
              placeholder="http://localhost:11434/v1"
              value={draft.baseUrl ?? ''}
              onChange={(e) => setDraft({ ...draft, baseUrl: e.target.value || null })}
            />
          </label>
        )}
        <label className="field">
          <span>Make</span>
          <select
            aria-label="Generation method"
            value={draft.method}
            onChange={(e) => setDraft({ ...draft, method: e.target.value as ConfigDraft['method'] })}
          >
            {methods.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={start} disabled={missing.length > 0}>
          Start generating
        </button>
      </div>
      <p className="muted small">
        {missing.length > 0 ? `Still needed: ${missing.join('; ')}.` : `Makes ${WHAT[draft.method]}.`}
      </p>
      {error && <p className="units-error">{error}</p>}
    </details>
  )
}
