import { useEffect, useRef, useState } from 'react'
import type { FileSource, ImportPreview } from '../../../../shared/contract/datasets'
import type { ImportFormat } from '../../../../shared/importMapping'
import { api } from '../../api'
import { longerPart, PREVIEW_BYTES, PreviewUpload, previewPart } from '../../fileSource'

const message = (e: unknown) => (e instanceof Error ? e.message : String(e))

/**
 * The first rows of a picked file read as `format` (null: as its name and bytes say), with no
 * layout: what a file of verdicts holds before it is imported. The part sent grows while it ends
 * inside the first row, as in the import wizard. `wholeSource` gives the file for the import,
 * reusing the preview's upload when that already held all of it.
 */
export function useFilePreview(file: File | null, format: ImportFormat | null) {
  const upload = useRef(new PreviewUpload())
  const [bytes, setBytes] = useState(PREVIEW_BYTES)
  const [preview, setPreview] = useState<ImportPreview | null>(null)
  const [error, setError] = useState<string | null>(null)

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new file starts its preview afresh
  useEffect(() => {
    setBytes(PREVIEW_BYTES)
    setPreview(null)
    setError(null)
  }, [file])

  useEffect(() => {
    if (!file) return
    let stale = false
    const partial = previewPart(file, bytes) !== file
    upload.current
      .source(file, bytes)
      .then((source) =>
        api('datasets.importPreview', { source, rows: 5, partial, ...(format ? { format } : {}) }),
      )
      .then(
        (p) => {
          if (stale) return
          const longer = p.needsMore ? longerPart(file, bytes) : null
          if (longer !== null) return setBytes(longer)
          setPreview(p)
          setError(null)
        },
        (e: unknown) => {
          if (stale) return
          setPreview(null)
          setError(message(e))
        },
      )
    return () => {
      stale = true
    }
  }, [file, format, bytes])

  const wholeSource = (f: File): Promise<FileSource> => upload.current.whole(f)

  /** The file was read whole and still refused: nothing the person can set will import it. */
  const unreadable = file !== null && error !== null && preview === null && previewPart(file, bytes) === file
  return { preview, error, unreadable, wholeSource }
}
