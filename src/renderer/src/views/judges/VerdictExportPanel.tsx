import { useState } from 'react'
import type { RunInfo } from '../../../../shared/contract/runs'
import { countOf } from '../../../../shared/plural'
import { api, isBrowserMode } from '../../api'
import { Dialog, DoneFooter, SaveTarget, WrittenFiles } from '../datasets/ExchangeParts'
import { useDownload } from '../datasets/useDownload'
import { useSaveFile } from '../datasets/useExchange'

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
  const task = useSaveFile(
    `${run.datasetId}:${run.id}`,
    async () =>
      `${(await api('exports.defaults', { datasetId: run.datasetId })).outDir}-run-${run.id}-verdicts.jsonl`,
    (out) => api('exports.verdicts', { runId: run.id, raw, ...(out ? { out } : {}) }),
  )
  const { path: file, setPath: setFile } = task
  const written = task.result
  const browser = isBrowserMode()
  const dl = useDownload(() => api('exports.downloadVerdicts', { runId: run.id, raw, csv: layout === 'csv' }))

  return (
    <Dialog id="verdict-export-title" title={`Export verdicts of run #${run.id}`} onClose={onClose}>
      {written ? (
        <>
          <WrittenFiles
            title={`Exported ${countOf(written.rows, 'verdict')}${raw ? ' with raw requests and responses' : ''}:`}
            files={[written.file]}
          />
          <DoneFooter onClose={onClose} />
        </>
      ) : dl.done ? (
        <>
          <p className="success-text" role="status">
            Downloaded {dl.done}.
          </p>
          <DoneFooter onClose={onClose} />
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
          <SaveTarget
            browser={browser}
            onClose={onClose}
            refusal="Nothing was exported."
            failure={dl.failure ?? task.failure}
            download={{ run: dl.run, busy: dl.busy, label: 'Download', busyLabel: 'Preparing…' }}
            save={{ run: task.save, busy: task.busy, label: 'Export', busyLabel: 'Exporting…' }}
            path={{ id: 'verdict-export-file', label: 'File', value: file, onChange: setFile }}
            hints={{
              server:
                'A full path on the machine running `npm run serve`, to a file that does not exist yet.',
              desktop: 'A full path on this computer to a file that does not exist yet.',
            }}
            server={{
              summary: 'Or write it to a file on the server’s machine',
              button: 'Write to this file',
            }}
          />
        </>
      )}
    </Dialog>
  )
}
