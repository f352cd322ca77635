import { useEffect, useRef, useState } from 'react'
import { api, onEvent } from '../../api'
import { Modal } from '../../components/Modal'
import { useQuery } from '../../hooks'
import { GuidelinesText } from './Guidelines'

/**
 * The Annotate view's guidelines: a side panel to open at any time, and the full text shown
 * before an annotator's first label on the dataset (until they say they have read it).
 * `gated` tells the view to hold its keys while the full text is up. When the lead publishes a
 * new version the text is fetched again and shown in full before the next label.
 * `shownVersion()` is the version the annotator has on screen, the one a label is given under:
 * while a newer version waits behind the gate, labels still belong to the one they were reading.
 */
export function useGuidelines(datasetId: number, annotatorId: number | null) {
  const q = useQuery(
    () =>
      annotatorId === null
        ? Promise.resolve(null)
        : api('projects.guidelines', { datasetId, annotatorId }).then((g) => ({ ...g, datasetId })),
    [datasetId, annotatorId],
  )
  const { reload } = q
  useEffect(
    () => onEvent('guidelines.changed', (e) => e.datasetId === datasetId && reload()),
    [datasetId, reload],
  )
  const gated = q.data?.mustRead === true
  // Kept per dataset: until the new dataset's guidelines arrive, no version is claimed for it.
  const shown = useRef<{ datasetId: number; version: number | undefined } | null>(null)
  const open = useRef(datasetId)
  open.current = datasetId
  if (q.data && q.data.datasetId === datasetId && !gated)
    shown.current = { datasetId, version: q.data.current?.version }
  const [shownVersion] = useState(
    () => () => (shown.current?.datasetId === open.current ? shown.current.version : undefined),
  )
  return { data: q.data ?? null, reload, gated, shownVersion }
}

type Guidelines = NonNullable<ReturnType<typeof useGuidelines>['data']>

/**
 * A toggle for the Annotate view's bar, and the text in a drawer at the right edge while open.
 * The toggle sits in the bar rather than floating over the page, where it covered the key hints.
 */
export function GuidelinesPanel({ guidelines }: { guidelines: Guidelines | null }) {
  const [open, setOpen] = useState(false)
  if (!guidelines?.current) return null
  return (
    <>
      <button
        type="button"
        className={open ? 'chip-button on' : 'chip-button'}
        tabIndex={-1}
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => setOpen(!open)}
        aria-expanded={open}
      >
        {open ? 'Hide guidelines' : `Guidelines v${guidelines.current.version}`}
      </button>
      {open && (
        <aside className="guidelines-panel" aria-label="Guidelines">
          <GuidelinesText body={guidelines.current.body} />
        </aside>
      )}
    </>
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
  const read = guidelines.readVersion ?? null
  return (
    <Modal className="guidelines-gate" label="Guidelines">
      <h2>
        {read !== null && read < current.version
          ? `The guidelines were updated: version ${current.version} (you read version ${read})`
          : `Before your first label: the guidelines (version ${current.version})`}
      </h2>
      <div className="guidelines-scroll">
        <GuidelinesText body={current.body} />
      </div>
      {error && <p className="error-box">{error}</p>}
      {/* Focused as it comes up, so Enter confirms: the unit list behind it holds no keys now. */}
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
    </Modal>
  )
}
