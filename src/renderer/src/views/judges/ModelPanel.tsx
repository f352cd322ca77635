import { useEffect, useState } from 'react'
import type { JudgeConfig, ModelInfo } from '../../../../shared/contract/judges'
import { modelHasPrices } from '../../../../shared/priceSet'
import { probeCaveat } from '../../../../shared/probeWords'
import { api } from '../../api'
import { useQuery } from '../../hooks'

type Flag = 'tools' | 'forcedToolChoice' | 'strictSchema' | 'jsonMode' | 'jsonSchema'
const FLAGS: { key: Flag; label: string }[] = [
  { key: 'tools', label: 'Tools / function calling' },
  { key: 'forcedToolChoice', label: 'Forced tool choice' },
  { key: 'strictSchema', label: 'Strict JSON schema' },
  { key: 'jsonMode', label: 'JSON mode' },
  { key: 'jsonSchema', label: 'JSON schema response format (constrained decoding)' },
]

type PriceKey = 'priceInputPerMTok' | 'priceOutputPerMTok'
const PRICES: { key: PriceKey; label: string }[] = [
  { key: 'priceInputPerMTok', label: 'Input price' },
  { key: 'priceOutputPerMTok', label: 'Output price' },
]

/** Where a price field is empty: 0 is stored for "not entered" (shared/priceSet.ts), never shown as a price. */
const NOT_SET = 'not set'

/** A price as its field shows it: empty for the 0 that stands for "not entered". */
const priceText = (x: number): string => (x > 0 ? String(x) : '')

const priceTexts = (m: ModelInfo): Record<PriceKey, string> => ({
  priceInputPerMTok: priceText(m.priceInputPerMTok),
  priceOutputPerMTok: priceText(m.priceOutputPerMTok),
})

/** What a price field's text stores: empty (or not a number) is 0, "not entered". */
const priceOf = (text: string): number => Math.max(0, Number(text.trim()) || 0)

const CACHE_PRICES: {
  key: 'priceCacheReadPerMTok' | 'priceCacheWritePerMTok'
  label: string
  placeholder: string
}[] = [
  { key: 'priceCacheReadPerMTok', label: 'Cached input price', placeholder: 'usual share of input' },
  { key: 'priceCacheWritePerMTok', label: 'Cache write price', placeholder: 'usual share of input' },
]

/** Capabilities and prices of the selected config's model; costs are computed from these. */
export function ModelPanel({ config }: { config: JudgeConfig }) {
  const model = useQuery(
    () =>
      api('judges.model', { provider: config.provider, model: config.model, baseUrl: config.baseUrl ?? '' }),
    [config.provider, config.model, config.baseUrl],
  )
  const [draft, setDraft] = useState<ModelInfo | null>(null)
  // The price fields' own text, so "0." or "" can be typed on the way to a price.
  const [texts, setTexts] = useState<Record<PriceKey, string>>({
    priceInputPerMTok: '',
    priceOutputPerMTok: '',
  })
  const [message, setMessage] = useState<string | null>(null)
  const load = (m: ModelInfo) => {
    setDraft(m)
    setTexts(priceTexts(m))
  }
  useEffect(() => {
    setDraft(model.data ?? null)
    if (model.data) setTexts(priceTexts(model.data))
  }, [model.data])
  if (config.provider === 'lexical') return null
  if (!draft) return <section className="card jd-card">Loading model…</section>
  const save = async () => {
    try {
      load(await api('judges.saveModel', draft))
      setMessage('Saved.')
    } catch (e) {
      setMessage(e instanceof Error ? e.message : String(e))
    }
  }
  const detect = async () => {
    setMessage('Detecting…')
    try {
      const out = await api('judges.detectModel', {
        provider: config.provider,
        model: config.model,
        baseUrl: config.baseUrl ?? '',
      })
      load(out.model)
      // A "no" recorded as a yes says why, in the words `models probe` uses.
      const said = out.results.map((r) => {
        const caveat = probeCaveat(r, out.model.capabilities)
        return `${r.capability} ${r.honoured ? 'yes' : 'no'}${caveat ? ` (${caveat})` : ''}`
      })
      setMessage(`Detected and saved: ${said.join(', ')}.`)
    } catch (e) {
      setMessage(e instanceof Error ? e.message : String(e))
    }
  }
  const caps = draft.capabilities
  return (
    <section className="card jd-card" aria-label="Model capabilities">
      <h3>
        Model {config.provider}/{config.model}
        {/* Prices and capabilities are kept per server: the same model name elsewhere is another entry. */}
        {config.provider === 'openai-compatible' && config.baseUrl ? ` at ${config.baseUrl}` : ''}
      </h3>
      <div className="jd-form">
        {FLAGS.map((f) => (
          <label key={f.key} className="check">
            <input
              type="checkbox"
              checked={caps[f.key]}
              onChange={(e) => setDraft({ ...draft, capabilities: { ...caps, [f.key]: e.target.checked } })}
            />
            <span>{f.label}</span>
          </label>
        ))}
        <label className="field">
          <span>Max enum values per schema</span>
          <input
            type="number"
            min={1}
            value={caps.maxEnumValues}
            onChange={(e) =>
              setDraft({ ...draft, capabilities: { ...caps, maxEnumValues: Number(e.target.value) || 1 } })
            }
          />
        </label>
        <label className="field">
          <span>Max properties per schema</span>
          <input
            type="number"
            min={1}
            value={caps.maxSchemaProperties}
            onChange={(e) =>
              setDraft({
                ...draft,
                capabilities: { ...caps, maxSchemaProperties: Number(e.target.value) || 1 },
              })
            }
          />
        </label>
        <label className="field">
          <span>Batch discount (0.5 = half price)</span>
          <input
            type="number"
            min={0}
            max={1}
            step="0.05"
            value={draft.batchDiscount}
            onChange={(e) =>
              setDraft({ ...draft, batchDiscount: Math.min(1, Math.max(0, Number(e.target.value) || 0)) })
            }
            aria-label="Batch discount"
          />
        </label>
        {CACHE_PRICES.map((p) => (
          <label className="field" key={p.key}>
            <span>{p.label} / 1M tokens</span>
            <input
              type="number"
              min={0}
              step="any"
              placeholder={p.placeholder}
              value={draft[p.key] ?? ''}
              onChange={(e) =>
                setDraft({
                  ...draft,
                  [p.key]: e.target.value.trim() === '' ? null : Math.max(0, Number(e.target.value) || 0),
                })
              }
              aria-label={p.label}
            />
          </label>
        ))}
        {PRICES.map((p) => (
          <label className="field" key={p.key}>
            <span>{p.label} / 1M tokens</span>
            <input
              type="number"
              min={0}
              step="any"
              placeholder={NOT_SET}
              value={texts[p.key]}
              onChange={(e) => {
                setTexts({ ...texts, [p.key]: e.target.value })
                setDraft({ ...draft, [p.key]: priceOf(e.target.value) })
              }}
              aria-label={p.label}
            />
          </label>
        ))}
      </div>
      {!modelHasPrices(draft) && (
        <p className="muted small" role="note" data-testid="no-price-note">
          {config.provider === 'openai-compatible'
            ? 'No prices yet: the cost of this model’s runs reads “no price set”. If the server charges per token, enter its prices per million tokens for the Compare view’s cost axis to mean something. A price of 0 counts as not set, so a local model that costs nothing keeps “no price set” and stays off the cost axis.'
            : 'No prices yet: the cost of this model’s runs reads “no price set” (a price of 0 counts as not set). Enter the provider’s current prices per million tokens (its pricing page) for the Compare view’s cost axis to mean something.'}
        </p>
      )}
      {!caps.tools || !caps.forcedToolChoice ? (
        <p className="muted small">
          {caps.jsonSchema && config.provider !== 'anthropic'
            ? 'Without forced tool calls the schema goes as a json_schema response format, so replies are valid JSON by construction.'
            : 'Without forced tool calls the schema is sent in the prompt and the JSON is read from the reply.'}
        </p>
      ) : null}
      <div className="jd-actions">
        <button type="button" onClick={save}>
          Save model
        </button>
        {config.provider !== 'anthropic' && (
          <button
            type="button"
            onClick={detect}
            title="Send one tiny request per capability and record what the server honours"
          >
            Detect
          </button>
        )}
        {message && <span className="small">{message}</span>}
      </div>
    </section>
  )
}
