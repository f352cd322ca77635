import { createReadStream, existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, relative, resolve, sep } from 'node:path'

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
}

/** The served folder with its symlinks resolved: every file's path is compared with this. */
function realRoot(root: string): string {
  return existsSync(root) ? realpathSync(root) : resolve(root)
}

/**
 * Maps a URL path to a file inside `root`, or null when it would leave it. Encoded separators
 * (`..%2f`), backslashes, NUL bytes and symlinks pointing outside all count as leaving. So does a
 * hidden name: the build keeps its manifest in `.vite/` for its own checks, and nothing the page
 * loads is hidden.
 */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null
  const rootReal = realRoot(root)
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '')
  const candidate = resolve(rootReal, relative)
  if (!candidate.startsWith(rootReal + sep)) return null
  if (
    candidate
      .slice(rootReal.length + 1)
      .split(sep)
      .some((part) => part.startsWith('.'))
  )
    return null
  if (!existsSync(candidate)) return candidate
  const real = realpathSync(candidate)
  return real.startsWith(rootReal + sep) ? real : null
}

export interface StaticOptions {
  root: string
  /** Headers every answer carries (CSP and friends). */
  headers: Record<string, string>
}

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  res.writeHead(status, {
    ...headers,
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
  })
  res.end(`${text}\n`)
}

/** Serves the built renderer. Paths without an extension fall back to index.html (client routes). */
export function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  opts: StaticOptions,
): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    plain(res, 405, 'Only GET and HEAD are served here.', { ...opts.headers, allow: 'GET, HEAD' })
    return
  }
  let file = resolveStaticPath(opts.root, pathname)
  if (file === null) {
    plain(res, 404, 'Not found.', opts.headers)
    return
  }
  if ((!existsSync(file) || !statSync(file).isFile()) && extname(file) === '')
    file = join(opts.root, 'index.html')
  if (!existsSync(file) || !statSync(file).isFile()) {
    const hint = pathname === '/' ? ` The renderer is not built in ${opts.root}: run \`npm run build\`.` : ''
    plain(res, 404, `Not found.${hint}`, opts.headers)
    return
  }
  const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream'
  const stat = statSync(file)
  const etag = `W/"${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}"`
  const cache = cacheControl(type, relative(realRoot(opts.root), file))
  if (cache !== 'no-store' && req.headers['if-none-match'] === etag) {
    res.writeHead(304, { ...opts.headers, etag, 'cache-control': cache })
    res.end()
    return
  }
  res.writeHead(200, {
    ...opts.headers,
    'content-type': type,
    'content-length': String(stat.size),
    'cache-control': cache,
    ...(cache === 'no-store' ? {} : { etag, 'last-modified': stat.mtime.toUTCString() }),
  })
  if (req.method === 'HEAD') {
    res.end()
    return
  }
  // The renderer's files (the largest 650 kB) go out in one write: a read stream sends 64 kB at a
  // time, each piece a trip through the thread pool and the event loop while the page waits for
  // its scripts. Anything larger is streamed, so a stray big file costs no memory.
  if (stat.size <= WHOLE_BYTES) res.end(readFileSync(file))
  else createReadStream(file).pipe(res)
}

/** Files up to this size are read and sent whole. */
const WHOLE_BYTES = 4 * 2 ** 20

/** A year: the longest lifetime caches are asked to honour. */
const A_YEAR_S = 365 * 24 * 3600

/**
 * The build names each script, style sheet and font under assets/ after a hash of its content
 * (`index-BFfH7ZKR.js`): such a name never serves other bytes, so the browser may keep it and
 * reuse its compiled code on a reload without asking. index.html names the hashes of the current
 * build, so it is never kept; anything else is kept but asked about again (its ETag answers 304).
 */
export function cacheControl(type: string, relativePath: string): string {
  if (type.startsWith('text/html')) return 'no-store'
  return isContentHashed(relativePath) ? `public, max-age=${A_YEAR_S}, immutable` : 'no-cache'
}

/** assets/<name>-<hash>.<ext>, the build's names (Vite's default: 8 URL-safe characters of hash). */
export function isContentHashed(relativePath: string): boolean {
  const parts = relativePath.split(sep)
  return parts.length === 2 && parts[0] === 'assets' && /-[\w-]{8}\.[a-z0-9]+$/i.test(parts[1] ?? '')
}
