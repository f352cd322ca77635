import { useState } from 'react'
import type { CallOutput } from '../../../../shared/contract'
import { JUDGE_METHODS } from '../../../../shared/domain'
import { IMPORTABLE_KINDS } from '../../../../shared/importableFiles'
import type { ImportFormat } from '../../../../shared/importMapping'
import { countOf } from '../../../../shared/plural'
import { api } from '../../api'
import { Modal } from '../../components/Modal'
import { ActionFooter, DoneFooter, message, Refusal } from '../datasets/ExchangeParts'
import { FilePick } from '../datasets/FilePick'
import { PreviewTable } from '../datasets/ImportParts'
import { FormatField, SkipBadRowsField } from '../datasets/LayoutSettings'
import { useFilePreview } from '../datasets/useFilePreview'

type Report = CallOutput<'judges.importVerdicts'>

const ONE_FILE = {
  input: 'Verdicts file',
  empty: `or drop a ${IMPORTABLE_KINDS} file here: one row per verdict, with item_id, variant, unit and verdict`,
}

/**
 * A judge's verdicts made elsewhere (a released benchmark's model outputs) imported as one
 * finished run of this dataset: the dialog of `factlab import-verdicts`, each field its flag.
 */
export function VerdictImportDialog(props: {
  dataset: { id: number; name: string }
  onClose(): void
  onImported(runId: number): void
}) {
  const [file, setFile] = useState<File | null>(null)
  const [format, setFormat] = useState<ImportFormat | null>(null)
  const [model, setModel] = useState('')
  const [method, setMethod] = useState('')
  const [unitBase, setUnitBase] = useState<0 | 1>(1)
  const [skipBadRows, setSkipBadRows] = useState(false)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [report, setReport] = useState<Report | null>(null)
  const shown = useFilePreview(file, format)

  function pick(list: FileList | null | undefined) {
    const f = list?.[0]
    if (!f) return
    setFailure(null)
    setFile(f)
  }

  async function run() {
    if (!file) return
    setBusy(true)
    setFailure(null)
    try {
      const r = await api('judges.importVerdicts', {
        datasetId: props.dataset.id,
        source: await shown.wholeSource(file),
        skipBadRows,
        unitBase,
        ...(format ? { format } : {}),
        ...(model.trim() ? { model: model.trim() } : {}),
        ...(method.trim() ? { method: method.trim() } : {}),
      })
      setReport(r)
      props.onImported(r.runId)
    } catch (e) {
      setFailure(message(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal className="wizard" labelledBy="verdict-import-title" onClose={props.onClose}>
      <header className="modal-head">
        <h2 id="verdict-import-title">Import verdicts into “{props.dataset.name}”</h2>
        <button type="button" className="ghost" onClick={props.onClose} aria-label="Close">
          ×
        </button>
      </header>
      {report ? (
        <div className="import-done">
          <p className="success-text" role="status">
            Imported run {report.runId}: {countOf(report.verdicts, 'verdict')}. It is listed under Runs and
            compared with people in Compare.
          </p>
          {report.skipped.length > 0 && (
            <details open>
              <summary>{countOf(report.skipped.length, 'row was', 'rows were')} skipped</summary>
              <ul className="skipped" aria-label="Skipped rows">
                {report.skipped.map((s) => (
                  <li key={s.at}>
                    {s.at}: {s.reason}
                  </li>
                ))}
              </ul>
            </details>
          )}
          <DoneFooter onClose={props.onClose} />
        </div>
      ) : (
        <>
          <FilePick file={file} more={[]} onPick={pick} one={ONE_FILE} />
          {shown.error && (
            <Refusal
              headline={
                shown.unreadable
                  ? 'This file cannot be imported. Choose another file.'
                  : 'The first rows could not be read.'
              }
              text={shown.error}
            />
          )}
          {file && (
            <div className="wizard-body">
              <div className="wizard-side">
                <div className="field">
                  <label htmlFor="vi-model">Model</label>
                  <input
                    id="vi-model"
                    value={model}
                    placeholder="unknown"
                    onChange={(e) => setModel(e.target.value)}
                    maxLength={200}
                  />
                  <p className="muted small">The model that made the verdicts; the run is named after it.</p>
                </div>
                <div className="field">
                  <label htmlFor="vi-method">Method</label>
                  <input
                    id="vi-method"
                    value={method}
                    placeholder="imported"
                    list="vi-methods"
                    onChange={(e) => setMethod(e.target.value)}
                    maxLength={100}
                  />
                  <datalist id="vi-methods">
                    {JUDGE_METHODS.map((m) => (
                      <option key={m} value={m} />
                    ))}
                  </datalist>
                </div>
                <div className="field">
                  <label htmlFor="vi-unit-base">Units numbered</label>
                  <select
                    id="vi-unit-base"
                    value={unitBase}
                    onChange={(e) => setUnitBase(e.target.value === '0' ? 0 : 1)}
                  >
                    <option value={1}>From 1, as the Units view shows them</option>
                    <option value={0}>From 0 in each answer (fact_0 … fact_n)</option>
                  </select>
                </div>
                <FormatField format={format} onChange={setFormat} />
                <SkipBadRowsField checked={skipBadRows} onChange={setSkipBadRows} />
              </div>
              <PreviewTable preview={shown.preview} failed={shown.error !== null} />
            </div>
          )}
          {failure && failure !== shown.error && <Refusal headline="Nothing was imported." text={failure} />}
          <ActionFooter
            onClose={props.onClose}
            onRun={run}
            busy={busy}
            label="Import"
            busyLabel="Importing…"
            disabled={!file || shown.unreadable}
          />
        </>
      )}
    </Modal>
  )
}
