import { randomBytes } from 'node:crypto'
import { accessSync, constants, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, isAbsolute, join, sep } from 'node:path'
import type { FileSource } from '../../shared/contract/datasets'

/** A file source main cannot use: missing, a folder, unreadable, or an upload that is gone. */
export class SourceError extends Error {}

/** Uploads nobody used within this time are removed (the wizard uses its upload at once). */
export const UPLOAD_MAX_AGE_MS = 60 * 60 * 1000

/** A file streamed to this machine in browser mode, kept in its own private folder. */
export interface Upload {
  id: string
  /** The name the person knows the file by. */
  name: string
  dir: string
  file: string
  bytes: number
  createdAt: number
}

/** A folder ready to receive an upload; `abandon()` when the upload fails. */
export interface PendingUpload {
  name: string
  dir: string
  file: string
  abandon(): void
}

/**
 * Uploads waiting for the call that uses them. One registry per process: the server adds to it
 * and the handlers take from it, without either knowing the other.
 */
export class UploadRegistry {
  private readonly byId = new Map<string, Upload>()
  private readonly inUse = new Map<string, number>()

  /** A private folder (mkdtemp: owner-only) holding the file under its own name. */
  begin(name: string, root = tmpdir()): PendingUpload {
    const dir = mkdtempSync(join(root, 'factlab-upload-'))
    // basename() again: the server already refuses paths, this keeps the write inside `dir`.
    return {
      name,
      dir,
      file: join(dir, basename(name)),
      abandon: () => rmSync(dir, { recursive: true, force: true }),
    }
  }

  register(pending: PendingUpload, bytes: number, now = Date.now()): Upload {
    const upload: Upload = {
      id: randomBytes(18).toString('base64url'),
      name: pending.name,
      dir: pending.dir,
      file: pending.file,
      bytes,
      createdAt: now,
    }
    this.byId.set(upload.id, upload)
    return upload
  }

  get(id: string): Upload | undefined {
    return this.byId.get(id)
  }

  /**
   * Unregisters the upload at once; its file goes now, or when the last call still reading it
   * is done (that call removes it).
   */
  discard(id: string): void {
    const upload = this.byId.get(id)
    if (!upload) return
    this.byId.delete(id)
    if (!this.inUse.has(id)) rmSync(upload.dir, { recursive: true, force: true })
  }

  /** Removes uploads older than `maxAge` that no call is reading; returns how many. */
  sweep(maxAge = UPLOAD_MAX_AGE_MS, now = Date.now()): number {
    let removed = 0
    for (const upload of [...this.byId.values()]) {
      if (now - upload.createdAt <= maxAge || this.inUse.has(upload.id)) continue
      this.discard(upload.id)
      removed++
    }
    return removed
  }

  /**
   * Runs `use` on the upload's file. `consume` takes the upload before `use` starts, so a second
   * import of it at the same time is refused rather than run twice, and removes it afterwards
   * whatever happened.
   */
  async use<T>(id: string, consume: boolean, use: (u: Upload) => T | Promise<T>): Promise<T> {
    const upload = this.byId.get(id)
    if (!upload)
      throw new SourceError(
        'The uploaded file is no longer on the server (an upload is used once, or removed after an hour): choose the file again',
      )
    this.inUse.set(id, (this.inUse.get(id) ?? 0) + 1)
    if (consume) this.byId.delete(id)
    try {
      return await use(upload)
    } finally {
      const left = (this.inUse.get(id) ?? 1) - 1
      if (left > 0) this.inUse.set(id, left)
      else {
        this.inUse.delete(id)
        // Consumed or discarded meanwhile: the last reader is the one to remove the file.
        if (!this.byId.has(id)) rmSync(upload.dir, { recursive: true, force: true })
      }
    }
  }
}

export const uploads = new UploadRegistry()

/** Error messages name the file as the person knows it, not the temporary folder it sits in. */
function hideFolder<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  return fn().catch((error: unknown) => {
    if (error instanceof Error) error.message = error.message.split(`${dir}${sep}`).join('')
    throw error
  })
}

/**
 * Bytes sent inline land in a private temporary folder under the original name (the extension
 * tells the importer the format), and the folder is removed whatever the importer does.
 */
export async function withUploadedFile<T>(
  fileName: string,
  contentBase64: string,
  use: (file: string) => T | Promise<T>,
): Promise<T> {
  const pending = uploads.begin(fileName)
  try {
    return await hideFolder(pending.dir, async () => {
      writeFileSync(pending.file, Buffer.from(contentBase64, 'base64'))
      return await use(pending.file)
    })
  } finally {
    pending.abandon()
  }
}

/** A path must be an existing, readable file; each refusal names the path as given. */
export function checkedPath(path: string): string {
  if (!isAbsolute(path)) throw new SourceError(`"${path}" is not a full path to a file`)
  let stat: ReturnType<typeof statSync>
  try {
    stat = statSync(path)
  } catch {
    throw new SourceError(`${path} does not exist (was it moved or deleted?)`)
  }
  if (stat.isDirectory()) throw new SourceError(`${path} is a folder: choose a file`)
  if (!stat.isFile()) throw new SourceError(`${path} is not a regular file`)
  try {
    accessSync(path, constants.R_OK)
  } catch {
    throw new SourceError(`${path} cannot be read: check its permissions`)
  }
  return path
}

export interface SourceOptions {
  /** Import and merge consume an upload; a preview leaves it for the next call. */
  consume: boolean
}

/** Hands `use` a readable file for any of the contract's sources. */
export async function withSource<T>(
  source: FileSource,
  opts: SourceOptions,
  use: (file: string) => T | Promise<T>,
): Promise<T> {
  if ('path' in source) return await use(checkedPath(source.path))
  if ('uploadId' in source)
    return await uploads.use(source.uploadId, opts.consume, (u) => hideFolder(u.dir, async () => use(u.file)))
  return await withUploadedFile(source.fileName, source.contentBase64, use)
}

/** Several sources at once (a multi-file import): each is held until `use` is done with all. */
export async function withSources<T>(
  sources: readonly FileSource[],
  opts: SourceOptions,
  use: (files: string[]) => T | Promise<T>,
  held: string[] = [],
): Promise<T> {
  if (held.length === sources.length) return await use(held)
  return await withSource(sources[held.length]!, opts, (file) =>
    withSources(sources, opts, use, [...held, file]),
  )
}

/** The name a person knows a source by: its path, or the picked file's name for uploads. */
export function shownName(source: FileSource): string {
  if ('path' in source) return source.path
  if ('uploadId' in source) return uploads.get(source.uploadId)?.name ?? 'upload'
  return source.fileName
}
