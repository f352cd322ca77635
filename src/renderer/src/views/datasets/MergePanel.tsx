import { useState } from 'react'
import type { MergeReport } from '../../../../shared/contract/exports'
import { api } from '../../api'
import { sourceOf } from '../../fileSource'
import { Dialog, message, Refusal } from './ExchangeParts'

interface Props {
  dataset: { id: number; name: string }
  onClose(): void
  onMerged(): void
}

const OUTCOMES: { key: keyof Omit<MergeReport, 'dataset' | 'annotator' | 'recreated'>; label: string }[] = [
  { key: 'added', label: 'Added' },
  { key: 'updated', label: 'Updated' },
  { key: 'unchanged', label: 'Unchanged' },
  { key: 'kept_local', label: 'Kept local' },
  { key: 'earlier_versions', label: 'On earlier unit versions' },
  { key: 'recreated_versions', label: 'Unit versions recreated' },
]

/** Upload a colleague's bundle into this dataset; all or nothing, and the outcome counted. */
export function MergePanel({ dataset, onClose, onMerged }: Props) {
  const [picked, setPicked] = useState<File | null>(null)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [report, setReport] = useState<MergeReport | null>(null)

  function pick(f: File | undefined) {
    if (!f) return
    setFailure(null)
    setPicked(f)
  }

  async function run() {
    if (!picked) return
    setBusy(true)
    setFailure(null)
    try {
      setReport(await api('exports.mergeBundle', { source: await sourceOf(picked), datasetId: dataset.id }))
      onMerged()
    } catch (e) {
      setFailure(message(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog id="merge-title" title={`Merge a bundle into “${dataset.name}”`} onClose={onClose}>
      {report ? (
        <>
          <p className="success-text" role="status">
            Merged {report.annotator}’s labels.
          </p>
          <dl className="merge-report" aria-label="Merge outcome">
            {OUTCOMES.map((o) => (
              <div key={o.key}>
                <dt>{o.label}</dt>
                <dd data-testid={`merge-${o.key}`}>{report[o.key]}</dd>
              </div>
            ))}
          </dl>
          <p className="muted small">
            Where both sides had changed a label, the newer one is current and the other stays in its history.
          </p>
          {report.recreated.length > 0 && (
            <details>
              <summary>Unit versions this workspace did not have, recreated for their labels</summary>
              <ul aria-label="Recreated unit versions">
                {report.recreated.map((r, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed once shown
                  <li key={i}>
                    {r.item} · {r.deleted ? 'deleted' : 'earlier'} {r.kind}: “{r.text}”
                  </li>
                ))}
              </ul>
            </details>
          )}
          <footer className="modal-foot">
            <button type="button" className="primary" onClick={onClose}>
              Done
            </button>
          </footer>
        </>
      ) : (
        <>
          <label className="dropzone">
            <input
              className="visually-hidden"
              type="file"
              accept=".jsonl,.json"
              onChange={(e) => pick(e.target.files?.[0])}
              aria-label="Bundle file"
            />
            <span className="pseudo-button">Choose bundle…</span>
            {picked ? (
              <strong>{picked.name}</strong>
            ) : (
              <span className="muted">a .bundle.jsonl file written by “Bundle my labels”</span>
            )}
          </label>
          {failure && <Refusal headline="Nothing was merged." text={failure} />}
          <footer className="modal-foot">
            <button type="button" onClick={onClose}>
              Cancel
            </button>
            <button type="button" className="primary" disabled={!picked || busy} onClick={run}>
              {busy ? 'Merging…' : 'Merge'}
            </button>
          </footer>
        </>
      )}
    </Dialog>
  )
}
