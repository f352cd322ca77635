import { useState } from 'react'
import type { CallOutput } from '../../../../shared/contract'
import { JUDGE_METHODS } from '../../../../shared/domain'
import { IMPORTABLE_KINDS, nothingImportable } from '../../../../shared/importableFiles'
import type { ImportFormat } from '../../../../shared/importMapping'
import { api } from '../../api'
import { Modal } from '../../components/Modal'
import { sourceOf } from '../../fileSource'
import { ActionFooter, DoneFooter, message, Refusal } from '../datasets/ExchangeParts'
import { FilePick, type PickWords } from '../datasets/FilePick'
import { PreviewTable } from '../datasets/ImportParts'
import { FormatField, SkipBadRowsField } from '../datasets/LayoutSettings'
import { folderName, pickedFiles, pickedPath } from '../datasets/pickedFiles'
import { useFilePreview } from '../datasets/useFilePreview'
import { VerdictsImported } from './VerdictsImported'

type Report = CallOutput<'judges.importVerdicts'>

const WORDS: PickWords = {
  input: 'Verdicts file',
  folder: 'Verdicts folder',
  empty: `or drop ${IMPORTABLE_KINDS} files here: one row per verdict, with item_id, variant, unit and verdict (several files make one run each)`,
  more: 'one run per file, named from its file unless a model is given',
}

/**
 * A judge's verdicts made elsewhere (a released benchmark's model outputs) imported as finished
 * runs of this dataset, one per file: the dialog of `factlab import-verdicts`, each field its flag.
 */
export function VerdictImportDialog(props: {
  dataset: { id: number; name: string }
  onClose(): void
  onImported(runId: number): void
}) {
  const [file, setFile] = useState<File | null>(null)
  // Further files picked with the first: a run each, as the CLI makes of several files.
  const [more, setMore] = useState<File[]>([])
  const [folderEmpty, setFolderEmpty] = useState<string | null>(null)
  const [format, setFormat] = useState<ImportFormat | null>(null)
  const [model, setModel] = useState('')
  const [method, setMethod] = useState('')
  const [unitBase, setUnitBase] = useState<0 | 1>(1)
  const [skipBadRows, setSkipBadRows] = useState(false)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [report, setReport] = useState<Report | null>(null)
  const shown = useFilePreview(file, format)

  function pick(list: FileList | null | undefined, folder = false) {
    const files = pickedFiles(list, folder)
    const f = files[0]
    if (!f) {
      if (folder) {
        setFile(null)
        setMore([])
        const top = folderName(list)
        setFolderEmpty(nothingImportable(top ? `“${top}”` : 'That folder'))
      }
      return
    }
    setFolderEmpty(null)
    setFailure(null)
    setMore(files.slice(1))
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
        moreSources: await Promise.all(more.map((f) => sourceOf(f))),
        pickedPaths: [file, ...more].map(pickedPath),
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
          <VerdictsImported report={report} />
          <DoneFooter onClose={props.onClose} />
        </div>
      ) : (
        <>
          <FilePick file={file} more={more} onPick={pick} words={WORDS} />
          {folderEmpty && <Refusal headline="Nothing to import." text={folderEmpty} />}
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
                  <p className="muted small">
                    The model that made the verdicts; the run is named after it
                    {more.length > 0 ? ' (left empty, each run is named after its file)' : ''}.
                  </p>
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
