import { useEffect, useState } from 'react'
import type { RunInfo } from '../../../../shared/contract/judges'
import { api } from '../../api'
import { Dialog, message, Refusal, WrittenFiles } from '../datasets/ExchangeParts'

type Layout = 'jsonl' | 'csv'

/** Main writes CSV when the file name ends in .csv, JSON lines otherwise. */
function withLayout(path: string, layout: Layout): string {
  const bare = path.replace(/\.(jsonl|csv)$/i, '')
  return `${bare}.${layout}`
}

/** One run's verdicts to a file, optionally with the exact provider exchanges behind them. */
export function VerdictExportPanel({ run, onClose }: { run: RunInfo; onClose(): void }) {
  const [layout, setLayout] = useState<Layout>('jsonl')
  const [raw, setRaw] = useState(false)
  const [file, setFile] = useState('')
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [written, setWritten] = useState<{ file: string; rows: number } | null>(null)

  // Suggested beside the dataset exports, named with the time, so nothing is overwritten.
  useEffect(() => {
    let stale = false
    api('exports.defaults', { datasetId: run.datasetId }).then(
      (d) => !stale && setFile((f) => f || `${d.outDir}-run-${run.id}-verdicts.jsonl`),
      (e) => !stale && setFailure(message(e)),
    )
    return () => {
      stale = true
    }
  }, [run.datasetId, run.id])

  async function save() {
    setBusy(true)
    setFailure(null)
    try {
      const out = file.trim()
      setWritten(await api('exports.verdicts', { runId: run.id, raw, ...(out ? { out } : {}) }))
    } catch (e) {
      setFailure(message(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog id="verdict-export-title" title={`Export verdicts of run #${run.id}`} onClose={onClose}>
      {written ? (
        <>
          <WrittenFiles
            title={`Exported ${written.rows} verdict${written.rows === 1 ? '' : 's'}${raw ? ' with raw requests and responses' : ''}:`}
            files={[written.file]}
          />
          <footer className="modal-foot">
            <button type="button" className="primary" onClick={onClose}>
              Done
            </button>
          </footer>
        </>
      ) : (
        <>
          <p className="muted small">
            {run.method} with {run.provider}/{run.model}: one row per judged unit.
          </p>
          <div className="field">
            <label htmlFor="verdict-export-layout">Format</label>
            <select
              id="verdict-export-layout"
              value={layout}
              onChange={(e) => {
                const next = e.target.value as Layout
                setLayout(next)
                setFile((f) => (f.trim() ? withLayout(f.trim(), next) : f))
              }}
            >
              <option value="jsonl">JSON lines</option>
              <option value="csv">CSV</option>
            </select>
          </div>
          <label className="check">
            <input type="checkbox" checked={raw} onChange={(e) => setRaw(e.target.checked)} />
            <span>Include raw requests/responses</span>
          </label>
          <p className="muted small">
            Each row then carries the request sent to the provider and its reply (never the API key); a call
            that judged several units appears on each of their rows.
          </p>
          <div className="field">
            <label htmlFor="verdict-export-file">File</label>
            <input
              id="verdict-export-file"
              className="mono"
              value={file}
              onChange={(e) => setFile(e.target.value)}
              spellCheck={false}
            />
            <p className="muted small">A full path on this computer to a file that does not exist yet.</p>
          </div>
          {failure && <Refusal headline="Nothing was exported." text={failure} />}
          <footer className="modal-foot">
            <button type="button" onClick={onClose}>
              Cancel
            </button>
            <button type="button" className="primary" disabled={busy} onClick={save}>
              {busy ? 'Exporting…' : 'Export'}
            </button>
          </footer>
        </>
      )}
    </Dialog>
  )
}
