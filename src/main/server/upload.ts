import { createWriteStream } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { type Upload, type UploadRegistry, uploads } from '../annotate/upload'

/** Far above any dataset people label by hand, low enough to stop a runaway upload filling the disk. */
export const MAX_UPLOAD_BYTES = 8 * 1024 ** 3

export interface UploadOptions {
  limit?: number
  /** Where upload folders are made (default: the OS temporary folder). */
  root?: string
  registry?: UploadRegistry
}

export class UploadRefused extends Error {
  constructor(
    readonly status: 400 | 405 | 413,
    message: string,
  ) {
    super(message)
  }
}

function sizeText(bytes: number): string {
  const gb = bytes / 1024 ** 3
  return gb >= 1 ? `${+gb.toFixed(1)} GB` : `${+(bytes / 1024 ** 2).toFixed(1)} MB`
}

function tooLarge(name: string, limit: number): UploadRefused {
  return new UploadRefused(
    413,
    `${name} is larger than ${sizeText(limit)}, the most browser mode accepts; import it with the CLI (\`factlab import\`).`,
  )
}

/** The name the person's file has: a plain name, since it becomes a file name on this machine. */
function fileName(raw: string | null): string {
  if (!raw || raw.length > 255 || /[/\\\0]/.test(raw) || raw === '.' || raw === '..')
    throw new UploadRefused(400, 'An upload needs ?name=<the file name> (a plain name, not a path).')
  return raw
}

/**
 * Streams a request body to a private temporary file, chunk by chunk, and registers it.
 * Past the limit the rest of the body is read and dropped rather than the connection cut,
 * so the browser gets the 413 and its message instead of a reset.
 */
export async function receiveUpload(
  req: IncomingMessage,
  url: URL,
  opts: UploadOptions = {},
): Promise<Upload> {
  if (req.method !== 'POST') throw new UploadRefused(405, `Uploads are sent with POST, not ${req.method}.`)
  const name = fileName(url.searchParams.get('name'))
  const limit = opts.limit ?? MAX_UPLOAD_BYTES
  const registry = opts.registry ?? uploads
  if (Number(req.headers['content-length'] ?? 0) > limit) throw tooLarge(name, limit)

  const pending = registry.begin(name, opts.root)
  const out = createWriteStream(pending.file, { flags: 'wx', mode: 0o600 })
  let size = 0
  let over = false
  const counted = new Writable({
    write(chunk: Buffer, _encoding, done) {
      size += chunk.length
      if (over) return done()
      if (size > limit) {
        over = true
        out.end()
        return done()
      }
      if (out.write(chunk)) done()
      else out.once('drain', () => done())
    },
    final(done) {
      if (over) return done()
      out.end(done)
    },
  })
  // A write that fails (disk full) ends the upload with that error instead of crashing the server.
  out.on('error', (error) => counted.destroy(error))
  try {
    await pipeline(req, counted)
    if (!out.closed) await new Promise<void>((ok, fail) => out.once('close', ok).once('error', fail))
  } catch (error) {
    out.destroy()
    pending.abandon()
    throw error
  }
  if (over) {
    pending.abandon()
    throw tooLarge(name, limit)
  }
  return registry.register(pending, size)
}
