import { useState } from 'react'
import {
  EXPORT_FORMAT_LABELS,
  EXPORT_FORMAT_NAMES,
  type ExportFormatName,
} from '../../../../shared/contract/exports'
import { api, downloadPrepared, isBrowserMode } from '../../api'
import { Dialog, DoneFooter, SaveTarget, WrittenFiles } from './ExchangeParts'
import { ExportProgress, newExportId } from './ExportProgress'
import { useSaveFile, useTask } from './useExchange'

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
  // The export under way, by the name its progress and Cancel go by (one per attempt).
  const [exportId, setExportId] = useState<string | null>(null)
  const task = useSaveFile(
    String(dataset.id),
    async () => (await api('exports.defaults', { datasetId: dataset.id })).outDir,
    async (outDir) => {
      const id = newExportId()
      setExportId(id)
      return api('exports.dataset', {
        datasetId: dataset.id,
        format,
        ...(outDir ? { outDir } : {}),
        ...(annotator ? { annotator } : {}),
        exportId: id,
      })
    },
  )
  const files = task.result?.files
  // Browser mode: the server's disk is not necessarily this computer's, so a download comes first.
  const browser = isBrowserMode()
  const dl = useTask<{ text: string; files: string[]; note?: string }>()
  const downloaded = dl.result
  // A release layout says what it leaves behind (one label per unit and answer).
  const note = task.result?.note ?? downloaded?.note

  function download() {
    const id = newExportId()
    setExportId(id)
    void dl.run(async () => {
      const r = await api('exports.download', {
        datasetId: dataset.id,
        format,
        ...(annotator ? { annotator } : {}),
        exportId: id,
      })
      await downloadPrepared(r.downloadId, r.fileName)
      const size = `${(r.bytes / 1024).toFixed(r.bytes < 10_240 ? 1 : 0)} KB`
      const text = r.zipped
        ? `${r.fileName} (${size}), a zip of the ${r.files.length} files the export writes`
        : `${r.fileName} (${size})`
      return { text, files: r.zipped ? r.files : [], ...(r.note === undefined ? {} : { note: r.note }) }
    })
  }

  const wiki = format.startsWith('wikievalfacts')
  const busy = task.busy || dl.busy
  return (
    <Dialog id="export-title" title={`Export “${dataset.name}”`} onClose={onClose}>
      {files ? (
        <>
          <WrittenFiles title="Exported. The data file and its dataset card:" files={files} />
          {note && <p className="muted small">{note}</p>}
          <DoneFooter onClose={onClose} />
        </>
      ) : downloaded ? (
        <>
          <div className="written" role="status">
            <p className="success-text">
              Downloaded {downloaded.text}. Your browser put it in its downloads folder.
            </p>
            {downloaded.files.length > 0 && (
              <ul aria-label="Files in the download">
                {downloaded.files.map((f) => (
                  <li key={f}>
                    <code>{f}</code>
                  </li>
                ))}
              </ul>
            )}
          </div>
          {note && <p className="muted small">{note}</p>}
          <DoneFooter onClose={onClose} />
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
          {busy && exportId && <ExportProgress exportId={exportId} />}
          <SaveTarget
            browser={browser}
            onClose={onClose}
            refusal="Nothing was exported."
            failure={dl.failure ?? task.failure}
            download={{
              run: download,
              busy: dl.busy,
              label: 'Download',
              busyLabel: 'Preparing the download…',
            }}
            save={{ run: task.save, busy: task.busy, label: 'Export', busyLabel: 'Exporting…' }}
            stopShownWhileBusy={exportId !== null}
            path={{ id: 'export-folder', label: 'Folder', value: task.path, onChange: task.setPath }}
            hints={{
              server:
                'A new or empty folder on the machine running `npm run serve`; it is created if missing. A README.md describing the data is written beside it.',
              desktop:
                'A new or empty folder on this computer; it is created if missing. A README.md describing the data is written beside it.',
            }}
            server={{
              summary: 'Or write it to a folder on the server’s machine',
              button: 'Write to this folder',
            }}
          />
        </>
      )}
    </Dialog>
  )
}
