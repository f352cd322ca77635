import { fileURLToPath } from 'node:url'

/** Where the app's own page lives: the built index.html, or the dev server in `npm run dev`. */
export type RendererSource = { kind: 'file'; indexHtml: string } | { kind: 'dev'; url: string }

/**
 * Whether a frame showing `frameUrl` is the app's own page. Only that page may call main; a
 * page reached some other way (which navigation blocking should already prevent) gets nothing.
 */
export function isTrustedRendererUrl(frameUrl: string, source: RendererSource): boolean {
  let url: URL
  try {
    url = new URL(frameUrl)
  } catch {
    return false
  }
  if (source.kind === 'dev') return url.origin === new URL(source.url).origin
  if (url.protocol !== 'file:' || (url.host !== '' && url.host !== 'localhost')) return false
  try {
    return fileURLToPath(url) === source.indexHtml
  } catch {
    return false
  }
}

/** Writing to the clipboard (copy buttons) is the one web permission the app's page may use. */
const ALLOWED_PERMISSIONS = new Set(['clipboard-sanitized-write'])

export function isPermissionAllowed(
  permission: string,
  requestingUrl: string,
  source: RendererSource,
): boolean {
  return ALLOWED_PERMISSIONS.has(permission) && isTrustedRendererUrl(requestingUrl, source)
}
