import { useEffect, useState } from 'react'
import { GUIDELINES_AT_LEAD, guidelinesProblems, guidelinesRefusal } from '../../../../shared/guidelinesCheck'
import { api } from '../../api'
import { useQuery } from '../../hooks'
import { GuidelinesText } from './Guidelines'

/** Edit the dataset's guidelines; each save is a new version and the older ones stay listed. */
export function GuidelinesEditor({
  datasetId,
  author,
  laptop,
  onSaved,
}: {
  datasetId: number
  /** Who is labelling: each version records its author. */
  author: string | null
  /** On a laptop, whose package it holds: the guidelines are the lead's, shown and not edited. */
  laptop: string | null
  onSaved(): void
}) {
  const q = useQuery(() => api('projects.guidelines', { datasetId }), [datasetId])
  const [body, setBody] = useState('')
  const [error, setError] = useState<string | null>(null)
  const current = q.data?.current ?? null
  useEffect(() => setBody(current?.body ?? ''), [current?.body])
  const problems = guidelinesProblems(body)

  const save = async () => {
    setError(null)
    try {
      await api('projects.saveGuidelines', { datasetId, body, ...(author ? { author } : {}) })
      q.reload()
      onSaved()
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }

  const heading = (
    <h2>Guidelines {current ? <span className="muted">version {current.version}</span> : null}</h2>
  )
  if (laptop !== null)
    return (
      <section className="card" aria-label="Guidelines">
        {heading}
        <p className="notice-box" data-testid="laptop-guidelines">
          The guidelines are the lead's: they came with {laptop}'s package. {GUIDELINES_AT_LEAD}
        </p>
        {current ? (
          <GuidelinesText body={current.body} />
        ) : (
          <p className="muted">The package carried none.</p>
        )}
      </section>
    )
  return (
    <section className="card" aria-label="Guidelines">
      {heading}
      <div className="guidelines-edit">
        <textarea
          aria-label="Guidelines Markdown"
          value={body}
          onChange={(e) => setBody(e.target.value)}
          rows={12}
          placeholder="# What counts as supported&#10;&#10;Write the rules annotators follow, in Markdown."
        />
        <div className="guidelines-preview">
          <GuidelinesText body={body} />
        </div>
      </div>
      <label className="muted small">
        Load a Markdown file…{' '}
        <input
          type="file"
          accept=".md,.markdown,.txt"
          aria-label="Guidelines file"
          onChange={(e) => {
            const f = e.target.files?.[0]
            if (f) void f.text().then(setBody)
            e.target.value = ''
          }}
        />
      </label>
      {problems.length > 0 && <p className="error-box">{guidelinesRefusal(problems)}</p>}
      {/* A refusal of what the box above already says is not said twice. */}
      {error && problems.length === 0 && (
        <p className="error-box" role="alert">
          {error}
        </p>
      )}
      <button
        type="button"
        className="primary"
        disabled={body === (current?.body ?? '') || problems.length > 0}
        onClick={() => void save()}
      >
        Save as a new version
      </button>
      {q.data && q.data.history.length > 0 && (
        <details>
          <summary>Earlier versions ({q.data.history.length})</summary>
          {q.data.history.map((h) => (
            <details key={h.version} className="guidelines-old">
              <summary>
                Version {h.version} · {h.createdAt.slice(0, 16).replace('T', ' ')}
                {h.author ? ` · by ${h.author}` : ''}
              </summary>
              <GuidelinesText body={h.body} />
            </details>
          ))}
        </details>
      )}
    </section>
  )
}
