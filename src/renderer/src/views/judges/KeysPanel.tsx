import { useState } from 'react'
import { api } from '../../api'
import { useQuery } from '../../hooks'

/**
 * Which providers have a key. Desktop: keys go to the OS keychain (with a warning and explicit
 * consent where the keychain would keep them in plain text). Browser mode: env variables only.
 */
export function KeysPanel() {
  const keys = useQuery(() => api('judges.keys', {}), [])
  const [provider, setProvider] = useState<'openai' | 'anthropic' | 'openai-compatible'>('openai')
  const [key, setKey] = useState('')
  const [consent, setConsent] = useState(false)
  const [message, setMessage] = useState<string | null>(null)
  const k = keys.data
  const save = async () => {
    try {
      await api('judges.setKey', { provider, key, confirmPlainText: consent })
      setKey('')
      setMessage('Key stored.')
      keys.reload()
    } catch (e) {
      setMessage(e instanceof Error ? e.message : String(e))
    }
  }
  return (
    <section className="card jd-card" aria-label="API keys">
      <h3>API keys</h3>
      {keys.error && <p className="error-text">{keys.error}</p>}
      {k && (
        <div className="jd-keys" data-testid="key-status">
          {k.providers.map((p) => (
            <div key={p.provider} style={{ display: 'contents' }}>
              <span>{p.provider}</span>
              <span className="muted small">
                {p.provider === 'lexical' ? 'no key needed' : k.source === 'env' ? p.envVar : 'OS keychain'}
              </span>
              {p.hasKey ? (
                <span className="jd-ok">ready</span>
              ) : p.provider === 'openai-compatible' ? (
                <span className="muted">optional</span>
              ) : (
                <span className="jd-missing">no key</span>
              )}
            </div>
          ))}
        </div>
      )}
      {k?.source === 'env' && (
        <p className="muted small">
          Browser mode reads keys from environment variables only; set them before `npm run serve`.
        </p>
      )}
      {k?.source === 'safeStorage' && (
        <>
          {k.plainTextOnly && (
            <p className="jd-warning" role="alert">
              This desktop has no keyring: a stored key would be kept unencrypted on disk. Prefer an
              environment variable, or tick the box below to store it anyway.
            </p>
          )}
          <div className="jd-form">
            <label className="field">
              <span>Provider</span>
              <select value={provider} onChange={(e) => setProvider(e.target.value as typeof provider)}>
                <option value="openai">openai</option>
                <option value="anthropic">anthropic</option>
                <option value="openai-compatible">openai-compatible</option>
              </select>
            </label>
            <label className="field">
              <span>Key</span>
              <input
                type="password"
                value={key}
                onChange={(e) => setKey(e.target.value)}
                autoComplete="off"
              />
            </label>
            {k.plainTextOnly && (
              <label className="check wide">
                <input type="checkbox" checked={consent} onChange={(e) => setConsent(e.target.checked)} />
                <span>Store it unencrypted anyway</span>
              </label>
            )}
          </div>
          <div className="jd-actions">
            <button type="button" className="primary" disabled={!key} onClick={save}>
              Store key
            </button>
            {message && <span className="small">{message}</span>}
          </div>
        </>
      )}
    </section>
  )
}
