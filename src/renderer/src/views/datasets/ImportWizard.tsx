import { useEffect, useRef, useState } from 'react'
import type { ImportPreview, ImportReport } from '../../../../shared/contract/datasets'
import { defaultDatasetName } from '../../../../shared/datasetName'
import { nothingImportable } from '../../../../shared/importableFiles'
import {
  type ImportFormat,
  Mapping,
  type MappingInput,
  mappingGap,
  PRESET_DESCRIPTIONS,
  PRESET_NAMES,
  type PresetName,
} from '../../../../shared/importMapping'
import { api } from '../../api'
import { Modal } from '../../components/Modal'
import { longerPart, PREVIEW_BYTES, PreviewUpload, previewPart, sourceOf } from '../../fileSource'
import { FilePick } from './FilePick'
import { ImportDone, PreviewTable } from './ImportParts'
import {
  DimensionField,
  FormatField,
  formatWords,
  SecondFileField,
  SkipBadRowsField,
  startingDimension,
} from './LayoutSettings'
import { MappingEditor } from './MappingEditor'
import { folderName, pickedFiles, pickedPath } from './pickedFiles'

interface Props {
  onClose(): void
  onImported(datasetId: number): void
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e))

/** Pick a file → see what was detected and the first rows → adjust → import, or read why not. */
export function ImportWizard({ onClose, onImported }: Props) {
  const [file, setFile] = useState<File | null>(null)
  // Further files picked with the first: one dataset, each file a candidate variant.
  const [more, setMore] = useState<File[]>([])
  // One preview upload per picked file, reused while the person tries layouts and mappings.
  const upload = useRef(new PreviewUpload())
  // How much of a text file the preview sends: more while the part ends inside the first row.
  const [previewBytes, setPreviewBytes] = useState(PREVIEW_BYTES)
  // How the file is read; null: as its name and first bytes say (the CLI without --format).
  const [format, setFormat] = useState<ImportFormat | null>(null)
  const [preset, setPreset] = useState<PresetName | 'custom' | null>(null)
  // Whether the person picked the layout, or it was set from what the columns look like.
  const [presetChosen, setPresetChosen] = useState(false)
  const [mapping, setMapping] = useState<MappingInput | null>(null)
  const [preview, setPreview] = useState<ImportPreview | null>(null)
  const [previewError, setPreviewError] = useState<string | null>(null)
  const [name, setName] = useState('')
  const [skipBadRows, setSkipBadRows] = useState(false)
  // Off unless the person ticks it: a file's labels never join a person's own unasked.
  const [creditPeople, setCreditPeople] = useState(false)
  // RefChecker's file of questions and references (--second-file); SummEval's scored dimension (--dimension).
  const [secondFile, setSecondFile] = useState<File | null>(null)
  const [dimension, setDimension] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [report, setReport] = useState<ImportReport | null>(null)

  const parsedMapping = mapping ? Mapping.safeParse(mapping) : null
  const mappingKey = JSON.stringify(mapping)

  // Live preview: re-read the first rows whenever the file, preset or mapping changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: mappingKey stands for mapping
  useEffect(() => {
    if (!file) return
    const custom = preset === 'custom'
    if (custom && !parsedMapping?.success) return
    let stale = false
    const partial = previewPart(file, previewBytes) !== file
    upload.current
      .source(file, previewBytes)
      .then((source) =>
        api('datasets.importPreview', {
          source,
          rows: 5,
          partial,
          ...(format ? { format } : {}),
          ...(preset && !custom ? { preset } : {}),
          ...(custom && parsedMapping?.success ? { mapping: parsedMapping.data } : {}),
        }),
      )
      .then(
        (p) => {
          if (stale) return
          const longer = p.needsMore ? longerPart(file, previewBytes) : null
          if (longer !== null) {
            // Its first row is longer than the part sent: read on before showing anything.
            setPreviewBytes(longer)
            return
          }
          setPreview(p)
          setPreviewError(null)
          setDimension((d) => startingDimension(p.dimensions, d))
          if (preset === null) setPreset((p.preset as PresetName | null) ?? 'custom')
          // With no known layout, start the mapping from the first column so the form is ready.
          if (mapping === null && (p.mapping || p.preset === null))
            setMapping(p.mapping ?? { reference: p.columns[0] ?? '' })
        },
        (e) => !stale && setPreviewError(message(e)),
      )
    return () => {
      stale = true
    }
  }, [file, format, preset, mappingKey, previewBytes])

  function pick(list: FileList | null | undefined, folder = false) {
    const files = pickedFiles(list, folder)
    const f = files[0]
    if (!f) {
      if (folder) {
        // Nothing of an earlier pick stays behind a refusal: no form to fill for nothing.
        setFile(null)
        setMore([])
        setPreview(null)
        const top = folderName(list)
        setPreviewError(nothingImportable(top ? `“${top}”` : 'That folder'))
      }
      return
    }
    setMore(files.slice(1))
    setFailure(null)
    setReport(null)
    setPreview(null)
    setPreset(null)
    setPresetChosen(false)
    setMapping(null)
    setCreditPeople(false)
    setFormat(null)
    setSecondFile(null)
    setDimension(null)
    setPreviewError(null)
    setPreviewBytes(PREVIEW_BYTES)
    // The name the CLI gives the same files: a folder's name when the folder is known.
    setName(defaultDatasetName(files.map(pickedPath)))
    setFile(f)
  }

  async function runImport() {
    if (!file) return
    setBusy(true)
    setFailure(null)
    try {
      const custom = preset === 'custom'
      const second = preset === 'refchecker' && secondFile ? await sourceOf(secondFile) : undefined
      const r = await api('datasets.import', {
        source: await upload.current.whole(file),
        moreSources: await Promise.all(more.map((f) => sourceOf(f))),
        datasetName: name.trim() || undefined,
        skipBadRows,
        creditExistingPeople: custom && creditPeople,
        // Uploads keep only their names: the folders they sat in name variants, as in the CLI.
        pickedPaths: [file, ...more].map(pickedPath),
        ...(format ? { format } : {}),
        ...(preset && !custom ? { preset } : {}),
        ...(second ? { secondSource: second } : {}),
        ...(preset === 'summeval' && dimension ? { dimension } : {}),
        ...(custom && parsedMapping?.success ? { mapping: parsedMapping.data } : {}),
      })
      setReport(r)
    } catch (e) {
      setFailure(message(e))
    } finally {
      setBusy(false)
    }
  }

  // A file read whole for the preview and refused is refused by the import too, as it is read now.
  const unreadable =
    file !== null && previewError !== null && preview === null && previewPart(file, previewBytes) === file
  // An empty file no format reads; any other may read as another format (the CLI's --format), so
  // the format and the settings stay to choose from.
  const noFormatReads = unreadable && file?.size === 0
  const gap = preset === 'custom' && parsedMapping?.success ? mappingGap(parsedMapping.data) : null
  const labelColumns =
    preset === 'custom' && parsedMapping?.success
      ? parsedMapping.data.labels.length + parsedMapping.data.factLabels.length
      : 0
  const canImport =
    file !== null &&
    !busy &&
    !unreadable &&
    gap === null &&
    (preset !== 'custom' || parsedMapping?.success === true) &&
    (preset !== 'summeval' || dimension !== null)

  return (
    <Modal className="wizard" labelledBy="wizard-title" onClose={onClose}>
      <header className="modal-head">
        <h2 id="wizard-title">Import a dataset</h2>
        <button type="button" className="ghost" onClick={onClose} aria-label="Close">
          ×
        </button>
      </header>
      {report ? (
        <ImportDone report={report} onOpen={() => onImported(report.datasetId)} />
      ) : (
        <>
          <FilePick file={file} more={more} onPick={pick} />
          {previewError && (
            <div className="error-box" role="alert">
              <strong>
                {file === null
                  ? 'Nothing to import.'
                  : noFormatReads
                    ? 'This file cannot be imported. Choose another file.'
                    : unreadable
                      ? `This file could not be read ${format ? `as ${formatWords(format)}` : 'in the format its name and first bytes suggest'}. Choose another file format below to read it again, or choose another file.`
                      : 'The first rows could not be read.'}
              </strong>
              <pre>{previewError}</pre>
            </div>
          )}
          {file && !noFormatReads && (
            <div className="wizard-body">
              <div className="wizard-side">
                <div className="field">
                  <label htmlFor="wiz-preset">Layout</label>
                  <select
                    id="wiz-preset"
                    value={preset ?? ''}
                    onChange={(e) => {
                      setPreset(e.target.value as PresetName | 'custom')
                      setPresetChosen(true)
                    }}
                  >
                    {preset === null && (
                      <option value="">{previewError ? 'not detected' : 'detecting…'}</option>
                    )}
                    {PRESET_NAMES.map((p) => (
                      <option key={p} value={p}>
                        {PRESET_DESCRIPTIONS[p]}
                      </option>
                    ))}
                    <option value="custom">Custom mapping (choose the columns)</option>
                  </select>
                  {preview && (
                    <p className="muted small">
                      Read as {preview.format}
                      {preview.detected
                        ? `; the columns look like ${preview.detected}`
                        : '; no known layout detected'}
                      {preset && preset !== preview.detected
                        ? presetChosen
                          ? `; reading it as ${preset === 'custom' ? 'your mapping' : preset}, as you chose`
                          : '; choose its columns below'
                        : ''}
                    </p>
                  )}
                </div>
                {preset === 'refchecker' && <SecondFileField file={secondFile} onChange={setSecondFile} />}
                {preset === 'summeval' && preview?.preset === 'summeval' && (
                  <DimensionField
                    dimensions={preview.dimensions}
                    dimension={dimension}
                    onChange={setDimension}
                  />
                )}
                {preset === 'custom' && mapping && (
                  <MappingEditor columns={preview?.columns ?? []} mapping={mapping} onChange={setMapping} />
                )}
                {labelColumns > 0 && (
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={creditPeople}
                      onChange={(e) => setCreditPeople(e.target.checked)}
                    />
                    File label columns under the people of those names (a column named after someone already
                    in this workspace joins their labels; left unticked, such an import is refused)
                  </label>
                )}
                {preset === 'custom' && !mapping && preview && (
                  <button type="button" onClick={() => setMapping({ reference: preview.columns[0] ?? '' })}>
                    Map the columns by hand
                  </button>
                )}
                {parsedMapping && !parsedMapping.success && preset === 'custom' && (
                  <p className="error-text">
                    {mapping?.reference
                      ? 'Fill in every row you added: a name and a column.'
                      : 'Choose at least the reference column.'}
                  </p>
                )}
                <div className="field">
                  <label htmlFor="wiz-name">Dataset name</label>
                  <input
                    id="wiz-name"
                    value={name}
                    onChange={(e) => setName(e.target.value)}
                    maxLength={200}
                  />
                </div>
                <FormatField
                  format={format}
                  onChange={(f) => {
                    setFormat(f)
                    // Read another way, the columns may be others: detect the layout again unless chosen.
                    if (!presetChosen) {
                      setPreset(null)
                      setMapping(null)
                    }
                  }}
                />
                <SkipBadRowsField checked={skipBadRows} onChange={setSkipBadRows} />
              </div>
              <PreviewTable preview={preview} failed={previewError !== null} />
            </div>
          )}
          {failure && failure !== previewError && (
            <div className="error-box" role="alert">
              <strong>Nothing was imported.</strong>
              <pre>{failure}</pre>
            </div>
          )}
          {gap && (
            <p className="error-text" role="alert">
              {gap}
            </p>
          )}
          <footer className="modal-foot">
            <button type="button" onClick={onClose}>
              Cancel
            </button>
            <button type="button" className="primary" disabled={!canImport} onClick={runImport}>
              {busy ? 'Importing…' : 'Import'}
            </button>
          </footer>
        </>
      )}
    </Modal>
  )
}
