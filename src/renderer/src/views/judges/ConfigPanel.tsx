import { useEffect, useMemo, useState } from 'react'
import { type JudgeConfig, type JudgeSettings, LLM_PROVIDERS } from '../../../../shared/contract/judges'
import { configProblems, DEFAULT_MODEL, PROVIDER_JUDGE_METHODS } from '../../../../shared/judgeValidity'
import {
  NA_SCOPE_LABELS,
  NA_SCOPE_METHODS,
  NA_SCOPES,
  type NaScope,
  naScopeOf,
} from '../../../../shared/naScope'
import { REUSED_TITLE } from '../../../../shared/reusedReplies'
import { api } from '../../api'
import { LexicalSettings } from './LexicalSettings'
import { missingKey } from './llmReach'
import type { NewConfigStart } from './newConfigStart'

type Draft = Omit<JudgeConfig, 'id' | 'createdAt'> & { id?: number }

const EMPTY: Draft = {
  name: '',
  provider: 'openai',
  model: '',
  baseUrl: null,
  method: 'faaf-tfn',
  settings: { concurrency: 4 },
}

/** With no API key anywhere, the judge that works is the offline lexical baseline. */
const LEXICAL: Draft = {
  name: 'Lexical baseline',
  provider: 'lexical',
  model: 'rougeL',
  baseUrl: null,
  method: 'lexical',
  settings: { concurrency: 4 },
}

/** A provider change keeps the draft runnable: a method it cannot run gives way to its first one. */
function withProvider(d: Draft, provider: Draft['provider']): Draft {
  const methods: readonly string[] = PROVIDER_JUDGE_METHODS[provider]
  const method = methods.includes(d.method) ? d.method : PROVIDER_JUDGE_METHODS[provider][0]!
  const wasDefault = d.model === '' || d.model === DEFAULT_MODEL[d.provider]
  const model = wasDefault ? (DEFAULT_MODEL[provider] ?? '') : d.model
  // The baseline's name would be wrong on any other provider; a name the person typed stays.
  const name =
    d.name === LEXICAL.name && provider !== 'lexical'
      ? ''
      : d.name === '' && provider === 'lexical'
        ? LEXICAL.name
        : d.name
  return { ...d, provider, method, model, name }
}

/** What the base URL field suggests: a local server's address only where one is expected. */
const BASE_URL_HINT: Partial<Record<Draft['provider'], string>> = {
  'openai-compatible': 'http://localhost:11434/v1',
  openai: 'https://api.openai.com/v1 (leave empty)',
  anthropic: 'https://api.anthropic.com (leave empty)',
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
  /** No provider has a key: a new config starts as the lexical baseline. */
  noKeys: boolean
  /** Which providers have a key, to say so where the config being edited needs one it lacks. */
  keys: readonly { provider: string; hasKey: boolean; envVar: string | null }[]
  /** The provider the person last saved a config for (newConfigStart.ts); null: openai. */
  start: NewConfigStart | null
  onSelect(id: number | null): void
  onSaved(config: JudgeConfig): void
}) {
  const current = props.configs.find((c) => c.id === props.selected)
  const startProvider = props.start?.provider ?? null
  const startUrl = props.start?.baseUrl ?? null
  // One object per start, so the effect below does not reset a draft being typed on every render.
  const blank = useMemo(
    () =>
      props.noKeys
        ? LEXICAL
        : startProvider === null
          ? EMPTY
          : withProvider({ ...EMPTY, baseUrl: startUrl }, startProvider),
    [props.noKeys, startProvider, startUrl],
  )
  const [draft, setDraft] = useState<Draft>(current ?? blank)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => setDraft(current ?? blank), [current, blank])
  const missing = configProblems(draft)
  const needKey = missingKey(props.keys, draft.provider)
  const methods: readonly string[] = PROVIDER_JUDGE_METHODS[draft.provider]
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
      {props.noKeys && draft.provider === 'lexical' && !current && (
        <p className="muted small" data-testid="lexical-start-hint">
          A new config starts as the lexical baseline: it runs offline and is the floor every LLM judge must
          beat. An LLM judge needs an API key, or a local openai-compatible server's base URL.
        </p>
      )}
      {needKey && (
        <p className="muted small" data-testid="no-key-hint">
          No API key is set for {needKey.provider}, so this config cannot run yet. Add one under API keys
          (desktop){needKey.envVar ? ` or set ${needKey.envVar} before \`npm run serve\` (browser mode)` : ''}
          ; a local openai-compatible server needs only its base URL.
        </p>
      )}
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
            onChange={(e) => setDraft((d) => withProvider(d, e.target.value as Draft['provider']))}
            aria-label="Provider"
          >
            {LLM_PROVIDERS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Model</span>
          <input
            value={draft.model}
            placeholder={DEFAULT_MODEL[draft.provider] ?? ''}
            onChange={(e) => set('model', e.target.value)}
            aria-label="Model"
          />
        </label>
        <label className="field wide">
          <span>Base URL {draft.provider === 'openai-compatible' ? '(required)' : '(optional)'}</span>
          <input
            value={draft.baseUrl ?? ''}
            placeholder={BASE_URL_HINT[draft.provider] ?? ''}
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
            {methods.map((m) => (
              <option key={m}>{m}</option>
            ))}
            {!methods.includes(draft.method) && (
              // A config saved before the rule: shown as it is, and the button says why it cannot run.
              <option value={draft.method}>{draft.method} (not runnable here)</option>
            )}
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
        {NA_SCOPE_METHODS.includes(draft.method) && (
          <label className="field wide">
            <span>An invalid argument makes N/A</span>
            <select
              value={naScopeOf(s)}
              onChange={(e) => setting('naScope', e.target.value as NaScope)}
              aria-label="An invalid argument makes N/A"
            >
              {NA_SCOPES.map((scope) => (
                <option key={scope} value={scope}>
                  {NA_SCOPE_LABELS[scope]}
                </option>
              ))}
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
            aria-label="Requests per minute"
          />
        </label>
        <label className="field">
          <span>Timeout (ms)</span>
          <input
            value={s.timeoutMs ?? ''}
            onChange={(e) => setting('timeoutMs', numberOrUndefined(e.target.value))}
            aria-label="Timeout in milliseconds"
          />
        </label>
        <label className="field">
          <span>Attempts per call</span>
          <input
            value={s.maxAttempts ?? ''}
            onChange={(e) => setting('maxAttempts', numberOrUndefined(e.target.value))}
            aria-label="Attempts per call"
          />
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={s.cache ?? true}
            onChange={(e) => setting('cache', e.target.checked)}
          />
          <span title={REUSED_TITLE}>Reuse replies to identical requests</span>
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
        <button
          type="button"
          className="primary"
          onClick={save}
          disabled={missing.length > 0}
          aria-describedby={missing.length > 0 ? 'config-missing' : undefined}
        >
          {draft.id ? 'Save changes' : 'Create config'}
        </button>
        {missing.length > 0 && (
          <span id="config-missing" className="muted small" data-testid="config-missing">
            Still needed: {missing.join('; ')}.
          </span>
        )}
        {error && <span className="error-text small">{error}</span>}
      </div>
    </section>
  )
}
