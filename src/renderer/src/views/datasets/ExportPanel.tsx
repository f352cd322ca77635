import { useEffect, useState } from 'react'
import {
  EXPORT_FORMAT_LABELS,
  EXPORT_FORMAT_NAMES,
  type ExportFormatName,
} from '../../../../shared/contract/exports'
import { api } from '../../api'
import { Dialog, message, Refusal, WrittenFiles } from './ExchangeParts'

interface Props {
  dataset: { id: number; name: string }
  /** Names of the people who labelled this dataset: an export can keep only one of them. */
  annotators: string[]
  onClose(): void
}

/** Choose a layout, optionally one annotator, and a folder; see exactly which files were written. */
export function ExportPanel({ dataset, annotators, onClose }: Props) {
  const [format, setFormat] = useState<ExportFormatName>('csv')
  const [annotator, setAnnotator] = useState('')
  const [folder, setFolder] = useState('')
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [files, setFiles] = useState<string[] | null>(null)

  // The suggested folder is new each time (named with the time), so nothing is overwritten.
  useEffect(() => {
    let stale = false
    api('exports.defaults', { datasetId: dataset.id }).then(
      (d) => !stale && setFolder((f) => f || d.outDir),
      (e) => !stale && setFailure(message(e)),
    )
    return () => {
      stale = true
    }
  }, [dataset.id])

  async function run() {
    setBusy(true)
    setFailure(null)
    try {
      const r = await api('exports.dataset', {
        datasetId: dataset.id,
        format,
        ...(folder.trim() ? { outDir: folder.trim() } : {}),
        ...(annotator ? { annotator } : {}),
      })
      setFiles(r.files)
    } catch (e) {
      setFailure(message(e))
    } finally {
      setBusy(false)
    }
  }

  const wiki = format.startsWith('wikievalfacts')
  return (
    <Dialog id="export-title" title={`Export “${dataset.name}”`} onClose={onClose}>
      {files ? (
        <>
          <WrittenFiles title="Exported. The data file and its dataset card:" files={files} />
          <footer className="modal-foot">
            <button type="button" className="primary" onClick={onClose}>
              Done
            </button>
          </footer>
        </>
      ) : (
        <>
          <div className="field">
            <label htmlFor="export-format">Format</label>
            <select
              id="export-format"
              value={format}
              onChange={(e) => setFormat(e.target.value as ExportFormatName)}
            >
              {EXPORT_FORMAT_NAMES.map((f) => (
                <option key={f} value={f}>
                  {EXPORT_FORMAT_LABELS[f]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="export-annotator">Labels</label>
            <select id="export-annotator" value={annotator} onChange={(e) => setAnnotator(e.target.value)}>
              <option value="">
                {wiki ? 'Gold (adjudicated, or the majority)' : 'Every annotator, one column each, and gold'}
              </option>
              {annotators.map((a) => (
                <option key={a} value={a}>
                  Only {a}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="export-folder">Folder</label>
            <input
              id="export-folder"
              className="mono"
              value={folder}
              onChange={(e) => setFolder(e.target.value)}
              spellCheck={false}
            />
            <p className="muted small">
              A new or empty folder on this computer; it is created if missing. A README.md describing the
              data is written beside it.
            </p>
          </div>
          {failure && <Refusal headline="Nothing was exported." text={failure} />}
          <footer className="modal-foot">
            <button type="button" onClick={onClose}>
              Cancel
            </button>
            <button type="button" className="primary" disabled={busy} onClick={run}>
              {busy ? 'Exporting…' : 'Export'}
            </button>
          </footer>
        </>
      )}
    </Dialog>
  )
}
