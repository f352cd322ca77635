// server/ is browser mode (`npm run serve`): the same dispatch over loopback HTTP, events over SSE.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import {
  HTTP_CALL_PREFIX,
  HTTP_DOWNLOAD_PREFIX,
  HTTP_EVENTS_PATH,
  HTTP_UPLOAD_PATH,
  TOKEN_HEADER,
  TOKEN_QUERY,
} from '../../shared/contract'
import type { RpcError } from '../../shared/contract/define'
import { uploads } from '../annotate/upload'
import { AppContext } from '../app/context'
import { loadDemoIfEmpty } from '../demo/loadDemo'
import { downloads } from '../downloads'
import { dispatch, type Handlers } from '../rpc/dispatch'
import { buildHandlers } from '../rpc/handlers'
import { CONTENT_SECURITY_POLICY } from '../shell/csp'
import { BodyError, readJsonBody } from './body'
import { serveDownload } from './download'
import { isAllowedHost, isAllowedOrigin, makeToken, tokensEqual } from './security'
import { openEventStream } from './sse'
import { serveStatic } from './static'
import { receiveUpload, UploadRefused } from './upload'

export interface ServerOptions {
  workspaceFile: string
  /** 0 picks a free port. */
  port?: number
  host?: '127.0.0.1'
  /** The built renderer; defaults to out/renderer under the working directory. */
  rendererDir?: string
  /** Tests pass a fixed token; otherwise a new one is made at each start. */
  token?: string
  /** Fills a new, empty workspace with the bundled demo. */
  loadDemo?: boolean
  /** Largest upload accepted (default MAX_UPLOAD_BYTES); tests make it small. */
  uploadLimit?: number
  /** Where uploads are kept until used (default: the OS temporary folder). */
  uploadRoot?: string
}

/** How often uploads nobody used are looked for. */
const SWEEP_EVERY_MS = 5 * 60 * 1000

export interface RunningServer {
  /** Where to point a browser; carries the token. */
  url: string
  origin: string
  token: string
  port: number
  ctx: AppContext
  close(): Promise<void>
}

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
}

/** HTTP status for a contract error, so logs and tools read right; the body is the RpcResult either way. */
const STATUS_OF: Record<RpcError['code'], number> = {
  bad_input: 400,
  unknown_call: 404,
  not_found: 200,
  conflict: 200,
  failed: 200,
  unavailable: 503,
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
  })
  res.end(text)
}

function refuse(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { ok: false, error: { code: 'failed', message } })
}

async function handleCall(
  req: IncomingMessage,
  res: ServerResponse,
  name: string,
  handlers: Handlers,
  workspaceFile: string,
) {
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST')
    refuse(res, 405, `Calls are made with POST, not ${req.method}.`)
    return
  }
  let input: unknown
  try {
    input = await readJsonBody(req)
  } catch (error) {
    if (error instanceof BodyError) {
      const code = error.status === 400 ? 'bad_input' : 'failed'
      sendJson(res, error.status, { ok: false, error: { code, message: `${name}: ${error.message}` } })
      req.resume()
      return
    }
    throw error
  }
  const result = await dispatch(handlers, name, input, workspaceFile)
  sendJson(res, result.ok ? 200 : STATUS_OF[result.error.code], result)
}

/**
 * Browser mode: the same services as the desktop app behind a loopback-only HTTP server.
 * Every request must name this server in Host (and Origin, when sent); every API request must
 * carry the per-start token — in the header for calls, in the query for the event stream,
 * since EventSource cannot set headers.
 */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1'
  const rendererDir = resolve(opts.rendererDir ?? 'out/renderer')
  const token = opts.token ?? makeToken()
  const ctx = new AppContext(opts.workspaceFile, { driver: 'browser' })
  if (opts.loadDemo) loadDemoIfEmpty(ctx.workspace)
  const handlers = buildHandlers(ctx)
  const streams = new Set<() => void>()
  const uploaded = new Set<string>()
  const sweeper = setInterval(() => {
    uploads.sweep()
    downloads.sweep()
    // Forget the ids of uploads already used or swept, so the set stays as small as the registry.
    for (const id of uploaded) if (!uploads.get(id)) uploaded.delete(id)
  }, SWEEP_EVERY_MS)
  sweeper.unref()
  let port = 0

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!isAllowedHost(req.headers.host, port)) {
      refuse(res, 403, `Refused: this server answers only to 127.0.0.1:${port} or localhost:${port}.`)
      return
    }
    if (!isAllowedOrigin(req.headers.origin, port)) {
      refuse(res, 403, 'Refused: requests from other sites are not allowed.')
      return
    }
    const url = new URL(req.url ?? '/', `http://${host}:${port}`)
    const path = url.pathname
    if (!path.startsWith('/api/')) {
      serveStatic(req, res, path, { root: rendererDir, headers: SECURITY_HEADERS })
      return
    }
    const site = req.headers['sec-fetch-site']
    if (site === 'cross-site' || site === 'same-site') {
      refuse(res, 403, 'Refused: requests from other sites are not allowed.')
      return
    }
    const isEvents = path === HTTP_EVENTS_PATH
    const given = isEvents ? url.searchParams.get(TOKEN_QUERY) : req.headers[TOKEN_HEADER]
    if (given === undefined || given === null || given === '') {
      refuse(res, 401, 'Missing access token: open the URL that `npm run serve` printed.')
      return
    }
    if (Array.isArray(given) || !tokensEqual(given, token)) {
      refuse(res, 403, 'Wrong access token: open the URL that `npm run serve` printed at its last start.')
      return
    }
    if (isEvents) {
      if (req.method !== 'GET') {
        refuse(res, 405, 'The event stream is read with GET.')
        return
      }
      const end = openEventStream(res, ctx.events, SECURITY_HEADERS)
      streams.add(end)
      res.on('close', () => streams.delete(end))
      return
    }
    if (path === HTTP_UPLOAD_PATH) {
      await handleUpload(req, res, url)
      return
    }
    if (path.startsWith(HTTP_DOWNLOAD_PREFIX)) {
      serveDownload(req, res, path.slice(HTTP_DOWNLOAD_PREFIX.length))
      return
    }
    if (path.startsWith(HTTP_CALL_PREFIX)) {
      // Call names are plain ASCII; anything percent-encoded is not one of them.
      await handleCall(req, res, path.slice(HTTP_CALL_PREFIX.length), handlers, ctx.workspace.file)
      return
    }
    refuse(res, 404, `No API at ${path}.`)
  }

  const handleUpload = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    try {
      const upload = await receiveUpload(req, url, { limit: opts.uploadLimit, root: opts.uploadRoot })
      uploaded.add(upload.id)
      sendJson(res, 200, { uploadId: upload.id, name: upload.name, bytes: upload.bytes })
    } catch (error) {
      if (!(error instanceof UploadRefused)) throw error
      sendJson(res, error.status, {
        ok: false,
        error: { code: error.status === 413 ? 'failed' : 'bad_input', message: error.message },
      })
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error)
      if (!res.headersSent) refuse(res, 500, `Internal error: ${message}`)
      else res.destroy()
    })
  })
  try {
    await new Promise<void>((ok, fail) => {
      server.once('error', fail)
      server.listen(opts.port ?? 0, host, () => {
        server.off('error', fail)
        ok()
      })
    })
  } catch (error) {
    clearInterval(sweeper)
    ctx.close()
    throw error
  }
  port = (server.address() as AddressInfo).port
  const origin = `http://${host}:${port}`
  let closed = false

  return {
    url: `${origin}/?${TOKEN_QUERY}=${encodeURIComponent(token)}`,
    origin,
    token,
    port,
    ctx,
    async close() {
      if (closed) return
      closed = true
      clearInterval(sweeper)
      for (const id of uploaded) uploads.discard(id)
      downloads.clear()
      for (const end of streams) end()
      const done = new Promise<void>((ok) => server.close(() => ok()))
      server.closeAllConnections()
      await done
      ctx.close()
    },
  }
}
