import { useEffect, useRef, useState } from 'react'
import type { FileSource, ImportPreview } from '../../../../shared/contract/datasets'
import type { ImportFormat } from '../../../../shared/importMapping'
import { api } from '../../api'
import { longerPart, PREVIEW_BYTES, previewPart, sourceOf } from '../../fileSource'

const message = (e: unknown) => (e instanceof Error ? e.message : String(e))

/**
 * The first rows of a picked file read as `format` (null: as its name and bytes say), with no
 * layout: what a file of verdicts holds before it is imported. The part sent grows while it ends
 * inside the first row, as in the import wizard. `wholeSource` gives the file for the import,
 * reusing the preview's upload when that already held all of it.
 */
export function useFilePreview(file: File | null, format: ImportFormat | null) {
  const sent = useRef<{ file: File; bytes: number; source: Promise<FileSource> } | null>(null)
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
    if (sent.current?.file !== file || sent.current.bytes !== bytes)
      sent.current = { file, bytes, source: sourceOf(file, previewPart(file, bytes)) }
    const partial = previewPart(file, bytes) !== file
    sent.current.source
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
          sent.current = null
          setPreview(null)
          setError(message(e))
        },
      )
    return () => {
      stale = true
    }
  }, [file, format, bytes])

  async function wholeSource(f: File): Promise<FileSource> {
    const cached = sent.current
    sent.current = null
    if (cached?.file === f && previewPart(f, cached.bytes) === f) return cached.source
    return sourceOf(f)
  }

  /** The file was read whole and still refused: nothing the person can set will import it. */
  const unreadable = file !== null && error !== null && preview === null && previewPart(file, bytes) === file
  return { preview, error, unreadable, wholeSource }
}
