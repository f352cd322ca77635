/**
 * The one Content-Security-Policy of the app, sent by the Electron session, by the browser-mode
 * server, and repeated in the renderer's index.html meta tag. Nothing loads from outside the app;
 * inline styles stay allowed because React's `style` props compile to them.
 */
export const CSP_DIRECTIVES: Readonly<Record<string, string>> = {
  'default-src': "'self'",
  'script-src': "'self'",
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data:",
  'connect-src': "'self'",
  'object-src': "'none'",
  'base-uri': "'none'",
  'frame-ancestors': "'none'",
  'form-action': "'none'",
}

export const CONTENT_SECURITY_POLICY = Object.entries(CSP_DIRECTIVES)
  .map(([name, value]) => `${name} ${value}`)
  .join('; ')

/**
 * The same policy for the renderer's index.html meta tag, which is what protects file:// pages.
 * Browsers ignore frame-ancestors in a meta tag (and log an error about it), so it is left out
 * there; the header still sends it.
 */
export const CSP_META_CONTENT = Object.entries(CSP_DIRECTIVES)
  .filter(([name]) => name !== 'frame-ancestors')
  .map(([name, value]) => `${name} ${value}`)
  .join('; ')

export const CSP_META_TAG = `<meta http-equiv="Content-Security-Policy" content="${CSP_META_CONTENT}" />`
