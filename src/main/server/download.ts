import { createReadStream } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { downloads } from '../downloads'

function plain(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
  res.end(message)
}

/**
 * Streams a prepared export (exports.download) to the browser, once: the file is read from disk
 * as it is sent, never whole into memory, and removed after the last byte.
 */
export function serveDownload(req: IncomingMessage, res: ServerResponse, id: string): void {
  if (req.method !== 'GET') {
    res.setHeader('allow', 'GET')
    plain(res, 405, 'A download is read with GET.')
    return
  }
  const d = downloads.get(id)
  if (!d) {
    plain(res, 404, 'No such download: it was fetched already or is more than an hour old. Export again.')
    return
  }
  res.writeHead(200, {
    'content-type': d.mime,
    'content-length': String(d.bytes),
    // RFC 6266: a plain ASCII fallback and the exact name, percent-encoded.
    'content-disposition': `attachment; filename="${d.fileName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(d.fileName)}`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  })
  const stream = createReadStream(d.file)
  stream.on('error', () => res.destroy())
  res.on('close', () => {
    stream.destroy()
    if (res.writableFinished) downloads.done(id)
  })
  stream.pipe(res)
}
