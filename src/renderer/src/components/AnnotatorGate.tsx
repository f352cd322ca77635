import { useRef, useState } from 'react'
import type { CallOutput } from '../../../shared/contract'
import { api } from '../api'
import type { Query } from '../hooks'
import { Modal } from './Modal'

interface Props {
  /**
   * The window's own reads of who may label, handed down: the gate lists names from the first
   * answers instead of asking again once it opens (a second round trip, queued behind the
   * datasets list, at a large workspace's first screen).
   */
  annotators: Query<CallOutput<'workspace.annotators'>>
  /** On a package laptop only the package's annotator labels: their labels alone can go back. */
  labellers: Query<CallOutput<'workspace.labellers'>>
  onChosen(annotator: { id: number; name: string }): void
  onCancel?: () => void
}

/** Asks who is labelling before anything gets labelled: pick a name or add one. */
export function AnnotatorGate({ annotators, labellers, onChosen, onCancel }: Props) {
  const only = labellers.data?.only ?? null
  const [name, setName] = useState('')
  const nameRef = useRef<HTMLInputElement>(null)
  const [error, setError] = useState<string | null>(null)

  async function create(e: React.FormEvent) {
    e.preventDefault()
    try {
      onChosen(await api('workspace.ensureAnnotator', { name }))
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    }
  }

  return (
    // Switching annotator can be abandoned (Escape); the first choice cannot.
    <Modal className="gate" labelledBy="gate-title" onClose={onCancel} focusRef={nameRef}>
      <h2 id="gate-title">Who is labelling?</h2>
      <p className="muted">Every label is stored under this name. You can switch at any time in Settings.</p>
      {annotators.error && <p className="error-box">{annotators.error}</p>}
      <div className="gate-list">
        {/* A dataset's reference labels (MRPC quality…) are not someone to label as. */}
        {annotators.data
          ?.filter((a) => a.kind !== 'source' && (labellers.data !== undefined || labellers.error !== null))
          .filter((a) => only === null || only.some((o) => o.id === a.id))
          .map((a) => (
            <button key={a.id} type="button" className="gate-person" onClick={() => onChosen(a)}>
              <span className="avatar" aria-hidden="true">
                {a.name.slice(0, 1).toUpperCase()}
              </span>
              {a.name}
            </button>
          ))}
      </div>
      {only !== null ? (
        <p className="muted gate-why">
          <strong>Looking for another name?</strong> {labellers.data?.why}
        </p>
      ) : (
        <form onSubmit={create} className="gate-new">
          <label htmlFor="gate-name">New annotator</label>
          <div className="row">
            <input
              id="gate-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="Your name"
              ref={nameRef}
              maxLength={100}
            />
            <button type="submit" className="primary" disabled={name.trim() === ''}>
              Start labelling
            </button>
          </div>
          {error && <p className="error-text">{error}</p>}
        </form>
      )}
      {onCancel && (
        <button type="button" className="ghost" onClick={onCancel}>
          Cancel
        </button>
      )}
    </Modal>
  )
}
