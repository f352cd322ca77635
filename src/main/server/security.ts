import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** A fresh secret for each start: 32 random bytes, URL-safe. */
export function makeToken(): string {
  return randomBytes(32).toString('base64url')
}

/** Compares in constant time; hashing first hides the length of the expected token too. */
export function tokensEqual(given: string | null | undefined, expected: string): boolean {
  if (typeof given !== 'string' || given.length === 0) return false
  const a = createHash('sha256').update(given).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}

/** The only Host values the loopback server answers to (anything else may be DNS rebinding). */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`]
}

export function isAllowedHost(host: string | undefined, port: number): boolean {
  if (!host) return false
  return allowedHosts(port).includes(host.toLowerCase())
}

/**
 * A request from the app's own page carries its own origin (or none, for same-origin GETs and
 * non-browser clients); any other origin is a page elsewhere trying to use the API.
 */
export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true
  return allowedHosts(port).some((h) => origin.toLowerCase() === `http://${h}`)
}
