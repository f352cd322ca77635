import { useRef, useState } from 'react'
import { IMPORTABLE_EXTENSIONS, IMPORTABLE_KINDS } from '../../../../shared/importableFiles'
import { countOf } from '../../../../shared/plural'
import { sizeText } from './ImportParts'

// The file chooser's hint: what a folder import reads, and .txt, which a file named on its own may be.
const ACCEPT = [...IMPORTABLE_EXTENSIONS, '.txt'].join(',')

/** What the drop zone says when it takes files of something else (a judge's verdicts). */
export interface PickWords {
  /** The file input's name, e.g. "Verdicts file". */
  input: string
  /** The folder input's name, e.g. "Verdicts folder". */
  folder: string
  /** Said before a file is picked, e.g. "or drop JSONL, JSON, CSV, TSV or Parquet files here". */
  empty: string
  /** What the files picked after the first become, e.g. "one run per file, named from its file". */
  more: string
}

/**
 * The import dialog's drop zone: files chosen, dropped, or a whole folder (`folder` true), in the
 * dataset import's words unless `words` gives others.
 */
export function FilePick({
  file,
  more,
  onPick,
  words,
}: {
  file: File | null
  more: readonly File[]
  onPick(list: FileList | null | undefined, folder?: boolean): void
  words?: PickWords
}) {
  const [dragging, setDragging] = useState(false)
  const folderInput = useRef<HTMLInputElement>(null)
  return (
    <>
      <label
        className={dragging ? 'dropzone dragging' : 'dropzone'}
        onDragOver={(e) => {
          e.preventDefault()
          setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault()
          setDragging(false)
          onPick(e.dataTransfer.files)
        }}
      >
        <input
          className="visually-hidden"
          type="file"
          accept={ACCEPT}
          multiple
          onChange={(e) => onPick(e.target.files)}
          aria-label={words?.input ?? 'Dataset file'}
        />
        <span className="pseudo-button">Choose file…</span>
        <button type="button" onClick={() => folderInput.current?.click()}>
          Choose folder…
        </button>
        {file ? (
          <span>
            <strong>{file.name}</strong> · {sizeText(file.size)}
            {more.length > 0 && (
              <span data-testid="more-files">
                {' '}
                and {countOf(more.length, 'more file')}:{' '}
                {words?.more ?? 'one dataset, each file a candidate variant named from its file name'}
              </span>
            )}{' '}
            — choose again to replace
          </span>
        ) : (
          <span className="muted">
            {words?.empty ?? `or drop a ${IMPORTABLE_KINDS} file here (several files make one dataset)`}
          </span>
        )}
      </label>
      <input
        ref={folderInput}
        className="visually-hidden"
        type="file"
        aria-label={words?.folder ?? 'Dataset folder'}
        // React has no typed prop for it: the browser's folder picker.
        {...{ webkitdirectory: '' }}
        onChange={(e) => onPick(e.target.files, true)}
      />
    </>
  )
}
