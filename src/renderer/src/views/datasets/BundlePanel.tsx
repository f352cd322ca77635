import { useEffect, useState } from 'react'
import { api } from '../../api'
import { Dialog, message, Refusal, WrittenFiles } from './ExchangeParts'

interface Props {
  dataset: { id: number; name: string }
  annotator: { id: number; name: string }
  onClose(): void
}

/** Writes the current annotator's labels of one dataset as a file a colleague can merge. */
export function BundlePanel({ dataset, annotator, onClose }: Props) {
  const [file, setFile] = useState('')
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [done, setDone] = useState<{ file: string; labels: number } | null>(null)

  useEffect(() => {
    let stale = false
    api('exports.defaults', { datasetId: dataset.id, annotatorId: annotator.id }).then(
      (d) => !stale && setFile((f) => f || d.bundleFile),
      (e) => !stale && setFailure(message(e)),
    )
    return () => {
      stale = true
    }
  }, [dataset.id, annotator.id])

  async function run() {
    setBusy(true)
    setFailure(null)
    try {
      setDone(
        await api('exports.bundle', {
          datasetId: dataset.id,
          annotatorId: annotator.id,
          ...(file.trim() ? { out: file.trim() } : {}),
        }),
      )
    } catch (e) {
      setFailure(message(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog id="bundle-title" title={`Bundle ${annotator.name}’s labels`} onClose={onClose}>
      {done ? (
        <>
          <WrittenFiles
            title={`${done.labels} ${done.labels === 1 ? 'label' : 'labels'} of “${dataset.name}” written to:`}
            files={[done.file]}
          />
          <p className="muted small">
            Send this file to whoever keeps the shared workspace; they merge it from their Datasets view.
          </p>
          <footer className="modal-foot">
            <button type="button" className="primary" onClick={onClose}>
              Done
            </button>
          </footer>
        </>
      ) : (
        <>
          <p className="muted">
            Every label {annotator.name} gave in “{dataset.name}”, with its history, in one file another
            workspace holding the same dataset can merge.
          </p>
          <div className="field">
            <label htmlFor="bundle-file">File</label>
            <input
              id="bundle-file"
              className="mono"
              value={file}
              onChange={(e) => setFile(e.target.value)}
              spellCheck={false}
            />
          </div>
          {failure && <Refusal headline="No bundle was written." text={failure} />}
          <footer className="modal-foot">
            <button type="button" onClick={onClose}>
              Cancel
            </button>
            <button type="button" className="primary" disabled={busy} onClick={run}>
              {busy ? 'Writing…' : 'Write bundle'}
            </button>
          </footer>
        </>
      )}
    </Dialog>
  )
}
