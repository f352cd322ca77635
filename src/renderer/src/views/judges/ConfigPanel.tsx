import { useEffect, useState } from 'react'
import {
  type JudgeConfig,
  type JudgeSettings,
  LLM_PROVIDERS,
  RUN_METHODS,
} from '../../../../shared/contract/judges'
import { api } from '../../api'
import { LexicalSettings } from './LexicalSettings'

type Draft = Omit<JudgeConfig, 'id' | 'createdAt'> & { id?: number }

const EMPTY: Draft = {
  name: '',
  provider: 'openai',
  model: '',
  baseUrl: null,
  method: 'faaf-tfn',
  settings: { concurrency: 4 },
}

function numberOrUndefined(raw: string): number | undefined {
  if (raw.trim() === '') return undefined
  const n = Number(raw)
  return Number.isFinite(n) ? n : undefined
}

/** Create or edit a judge config: provider, model, method and how the run is paced. */
export function ConfigPanel(props: {
  configs: JudgeConfig[]
  selected: number | null
  onSelect(id: number | null): void
  onSaved(config: JudgeConfig): void
}) {
  const current = props.configs.find((c) => c.id === props.selected)
  const [draft, setDraft] = useState<Draft>(current ?? EMPTY)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => setDraft(current ?? EMPTY), [current])
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }))
  const setting = <K extends keyof JudgeSettings>(k: K, v: JudgeSettings[K] | undefined) =>
    setDraft((d) => {
      const settings = { ...d.settings }
      if (v === undefined) delete settings[k]
      else settings[k] = v
      return { ...d, settings }
    })
  const save = async () => {
    setError(null)
    try {
      const saved = await api('judges.saveConfig', { ...draft, baseUrl: draft.baseUrl || null })
      props.onSaved(saved)
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }
  const s = draft.settings
  return (
    <section className="card jd-card" aria-label="Judge configuration">
      <h3>Judge configuration</h3>
      <div className="jd-form">
        <label className="field wide">
          <span>Saved configs</span>
          <select
            value={props.selected ?? ''}
            onChange={(e) => props.onSelect(e.target.value ? Number(e.target.value) : null)}
            aria-label="Saved configs"
          >
            <option value="">New config…</option>
            {props.configs.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} — {c.method}, {c.provider}/{c.model}
              </option>
            ))}
          </select>
        </label>
        <label className="field wide">
          <span>Name</span>
          <input value={draft.name} onChange={(e) => set('name', e.target.value)} aria-label="Config name" />
        </label>
        <label className="field">
          <span>Provider</span>
          <select
            value={draft.provider}
            onChange={(e) => set('provider', e.target.value as Draft['provider'])}
            aria-label="Provider"
          >
            {LLM_PROVIDERS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Model</span>
          <input value={draft.model} onChange={(e) => set('model', e.target.value)} aria-label="Model" />
        </label>
        <label className="field wide">
          <span>Base URL {draft.provider === 'openai-compatible' ? '(required)' : '(optional)'}</span>
          <input
            value={draft.baseUrl ?? ''}
            placeholder="http://localhost:11434/v1"
            onChange={(e) => set('baseUrl', e.target.value || null)}
            aria-label="Base URL"
          />
        </label>
        <label className="field">
          <span>Method</span>
          <select
            value={draft.method}
            onChange={(e) => set('method', e.target.value as Draft['method'])}
            aria-label="Method"
          >
            {RUN_METHODS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Temperature</span>
          <input
            value={s.temperature ?? ''}
            onChange={(e) => setting('temperature', numberOrUndefined(e.target.value))}
            aria-label="Temperature"
          />
        </label>
        {draft.method === 'prompt-tf' && (
          <label className="field">
            <span>Parse mode</span>
            <select
              value={s.parseMode ?? 'word-match'}
              onChange={(e) => setting('parseMode', e.target.value as 'word-match' | 'strict')}
            >
              <option>word-match</option>
              <option>strict</option>
            </select>
          </label>
        )}
        {draft.method === 'lexical' && <LexicalSettings settings={s} setting={setting} />}
        {draft.method === 'dcr' && (
          <label className="check">
            <input
              type="checkbox"
              checked={s.amcLlm ?? false}
              onChange={(e) => setting('amcLlm', e.target.checked)}
            />
            <span>AMC by LLM call</span>
          </label>
        )}
        <label className="field">
          <span>Concurrency</span>
          <input
            value={s.concurrency ?? ''}
            onChange={(e) => setting('concurrency', numberOrUndefined(e.target.value))}
            aria-label="Concurrency"
          />
        </label>
        <label className="field">
          <span>Requests / min</span>
          <input
            value={s.rpm ?? ''}
            onChange={(e) => setting('rpm', numberOrUndefined(e.target.value) ?? null)}
          />
        </label>
        <label className="field">
          <span>Timeout (ms)</span>
          <input
            value={s.timeoutMs ?? ''}
            onChange={(e) => setting('timeoutMs', numberOrUndefined(e.target.value))}
          />
        </label>
        <label className="field">
          <span>Attempts per call</span>
          <input
            value={s.maxAttempts ?? ''}
            onChange={(e) => setting('maxAttempts', numberOrUndefined(e.target.value))}
          />
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={s.cache ?? true}
            onChange={(e) => setting('cache', e.target.checked)}
          />
          <span>Reuse cached replies</span>
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={s.repairRetry ?? false}
            onChange={(e) => setting('repairRetry', e.target.checked)}
          />
          <span>Repair retry on format failure</span>
        </label>
      </div>
      <div className="jd-actions">
        <button type="button" className="primary" onClick={save} disabled={!draft.name || !draft.model}>
          {draft.id ? 'Save changes' : 'Create config'}
        </button>
        {error && <span className="error-text small">{error}</span>}
      </div>
    </section>
  )
}
