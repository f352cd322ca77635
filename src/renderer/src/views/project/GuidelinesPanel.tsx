import { useState } from 'react'
import { api } from '../../api'
import { useQuery } from '../../hooks'
import { GuidelinesText } from './Guidelines'

/**
 * The Annotate view's guidelines: a side panel to open at any time, and the full text shown
 * before an annotator's first label on the dataset (until they say they have read it).
 * `gated` tells the view to hold its keys while the full text is up.
 */
export function useGuidelines(datasetId: number, annotatorId: number | null) {
  const q = useQuery(
    () =>
      annotatorId === null ? Promise.resolve(null) : api('projects.guidelines', { datasetId, annotatorId }),
    [datasetId, annotatorId],
  )
  return { data: q.data ?? null, reload: q.reload, gated: q.data?.mustRead === true }
}

type Guidelines = NonNullable<ReturnType<typeof useGuidelines>['data']>

export function GuidelinesPanel({ guidelines }: { guidelines: Guidelines | null }) {
  const [open, setOpen] = useState(false)
  if (!guidelines?.current) return null
  return (
    <aside className={open ? 'guidelines-panel open' : 'guidelines-panel'} aria-label="Guidelines">
      <button type="button" className="guidelines-toggle" onClick={() => setOpen(!open)} aria-expanded={open}>
        {open ? 'Hide guidelines' : `Guidelines v${guidelines.current.version}`}
      </button>
      {open && <GuidelinesText body={guidelines.current.body} />}
    </aside>
  )
}

export function GuidelinesGate({
  guidelines,
  datasetId,
  annotatorId,
  onRead,
}: {
  guidelines: Guidelines
  datasetId: number
  annotatorId: number
  onRead(): void
}) {
  const [error, setError] = useState<string | null>(null)
  const current = guidelines.current
  if (!current) return null
  return (
    <div className="modal-backdrop">
      <div className="modal guidelines-gate" role="dialog" aria-modal="true" aria-label="Guidelines">
        <h2>Before your first label: the guidelines (version {current.version})</h2>
        <div className="guidelines-scroll">
          <GuidelinesText body={current.body} />
        </div>
        {error && <p className="error-box">{error}</p>}
        <button
          type="button"
          className="primary"
          onClick={() =>
            api('projects.readGuidelines', { datasetId, annotatorId, version: current.version }).then(
              onRead,
              (e) => setError(e instanceof Error ? e.message : String(e)),
            )
          }
        >
          I have read the guidelines
        </button>
      </div>
    </div>
  )
}
