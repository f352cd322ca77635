import { useEffect, useState } from 'react'
import { api } from '../../api'
import { useQuery } from '../../hooks'

/** Prompt templates: every save makes a new version; runs record the versions they used. */
export function TemplatesPanel() {
  const templates = useQuery(() => api('judges.templates', {}), [])
  const [name, setName] = useState<string>('faaf')
  const current = templates.data?.find((t) => t.name === name)
  const [system, setSystem] = useState('')
  const [user, setUser] = useState('')
  const [message, setMessage] = useState<string | null>(null)
  useEffect(() => {
    setSystem(current?.system ?? '')
    setUser(current?.user ?? '')
  }, [current])
  const save = async () => {
    try {
      const saved = await api('judges.saveTemplate', { name, user, ...(system.trim() ? { system } : {}) })
      setMessage(`Saved as version ${saved.version}.`)
      templates.reload()
    } catch (e) {
      setMessage(e instanceof Error ? e.message : String(e))
    }
  }
  const changed = current !== undefined && (user !== current.user || system !== (current.system ?? ''))
  return (
    <section className="card jd-card" aria-label="Prompt templates">
      <h3>Prompt templates</h3>
      <label className="field">
        <span>Template</span>
        <select value={name} onChange={(e) => setName(e.target.value)} aria-label="Template">
          {(templates.data ?? []).map((t) => (
            <option key={t.name} value={t.name}>
              {t.name} (v{t.version})
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>System</span>
        <textarea
          className="jd-template"
          style={{ minHeight: 60 }}
          value={system}
          onChange={(e) => setSystem(e.target.value)}
        />
      </label>
      <label className="field">
        <span>User message</span>
        <textarea
          className="jd-template"
          value={user}
          onChange={(e) => setUser(e.target.value)}
          aria-label="Template body"
        />
      </label>
      <div className="jd-actions">
        <button type="button" className="primary" disabled={!changed} onClick={save}>
          Save new version
        </button>
        {message && <span className="small">{message}</span>}
      </div>
    </section>
  )
}
