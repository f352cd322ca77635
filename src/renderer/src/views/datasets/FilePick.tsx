import { useRef, useState } from 'react'
import { IMPORTABLE_EXTENSIONS, IMPORTABLE_KINDS } from '../../../../shared/importableFiles'
import { countOf } from '../../../../shared/plural'
import { sizeText } from './ImportParts'

// The file chooser's hint: what a folder import reads, and .txt, which a file named on its own may be.
const ACCEPT = [...IMPORTABLE_EXTENSIONS, '.txt'].join(',')

/** The import dialog's drop zone: files chosen, dropped, or a whole folder (`folder` true). */
export function FilePick({
  file,
  more,
  onPick,
}: {
  file: File | null
  more: readonly File[]
  onPick(list: FileList | null | undefined, folder?: boolean): void
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
          aria-label="Dataset file"
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
                and {countOf(more.length, 'more file')}: one dataset, each file a candidate variant named from
                its file name
              </span>
            )}{' '}
            — choose again to replace
          </span>
        ) : (
          <span className="muted">
            or drop a {IMPORTABLE_KINDS} file here (several files make one dataset)
          </span>
        )}
      </label>
      <input
        ref={folderInput}
        className="visually-hidden"
        type="file"
        aria-label="Dataset folder"
        // React has no typed prop for it: the browser's folder picker.
        {...{ webkitdirectory: '' }}
        onChange={(e) => onPick(e.target.files, true)}
      />
    </>
  )
}
