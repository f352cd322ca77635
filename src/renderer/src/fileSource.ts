import type { FileSource } from '../../shared/contract/datasets'
import { uploadFile } from './api'

/** Enough rows for the wizard's preview of any text format; the importer stops reading there. */
export const PREVIEW_BYTES = 1 << 20

/** Parquet keeps its schema at the end of the file, so a preview needs the whole of it. */
function needsWholeFile(name: string): boolean {
  return /\.parquet$/i.test(name)
}

/**
 * What a preview sends: the first `bytes` of a text file, all of a small or Parquet file. The
 * preview asks for more (`needsMore`) while the part ends inside the first row.
 */
export function previewPart(file: File, bytes = PREVIEW_BYTES): Blob {
  return needsWholeFile(file.name) || file.size <= bytes ? file : file.slice(0, bytes)
}

/**
 * The next, longer part to send when a preview's part ended inside the first row: four times as
 * much (a FactLab export's first row carries the guidelines and the plan), the whole file at last.
 */
export function longerPart(file: File, bytes: number): number | null {
  return bytes >= file.size ? null : Math.min(file.size, bytes * 4)
}

function readBase64(blob: Blob, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''))
    reader.onerror = () => reject(new Error(`Cannot read ${name}`))
    reader.readAsDataURL(blob)
  })
}

/** Without a path, the desktop app can only send bytes inline: fine for small files only. */
const INLINE_LIMIT = 64 * 1024 * 1024

/**
 * How main gets a picked file. The desktop app hands over its path and main reads the file
 * itself; browser mode streams the bytes (all, or `part`) to the server and names the upload.
 */
export async function sourceOf(file: File, part: Blob = file): Promise<FileSource> {
  const bridge = window.factlab
  if (bridge) {
    const path = bridge.pathForFile?.(file) ?? ''
    if (path) return { path }
    // A file dropped from another app may have no path on disk.
    if (part.size > INLINE_LIMIT)
      throw new Error(`${file.name} has no path on disk and is too large to send: save it to a folder first`)
    return { fileName: file.name, contentBase64: await readBase64(part, file.name) }
  }
  return { uploadId: await uploadFile(part, file.name) }
}

/**
 * The upload behind a file's preview, kept while the person tries formats and layouts, and
 * handed to the import when it already holds the whole file (a small file is sent once).
 */
export class PreviewUpload {
  private sent: { file: File; bytes: number; source: Promise<FileSource> } | null = null

  /** The first `bytes` of `file` as a source, sent again only when the file or the part changes. */
  source(file: File, bytes: number): Promise<FileSource> {
    if (this.sent?.file !== file || this.sent.bytes !== bytes) {
      const source = sourceOf(file, previewPart(file, bytes))
      this.sent = { file, bytes, source }
      // A failed upload is not kept: the next preview sends the part again.
      source.catch(() => {
        if (this.sent?.source === source) this.sent = null
      })
    }
    return this.sent.source
  }

  /** The whole file for the import; a preview upload that already held all of it is reused once. */
  whole(file: File): Promise<FileSource> {
    const cached = this.sent
    this.sent = null
    if (cached?.file === file && previewPart(file, cached.bytes) === file) return cached.source
    return sourceOf(file)
  }
}
