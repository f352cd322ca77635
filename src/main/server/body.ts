import type { IncomingMessage } from 'node:http'

/** Calls carry JSON, not files (those stream through /api/upload), so this only stops runaway bodies. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024

export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message)
  }
}

/** Reads a JSON request body, refusing oversize bodies early and naming what was wrong. */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase()
  // Requiring JSON also means a cross-site form post can never reach a call without a preflight.
  if (type !== 'application/json')
    throw new BodyError(
      415,
      `Calls take a JSON body (content-type: application/json), got "${type || 'none'}".`,
    )
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > limit) throw new BodyError(413, tooLarge(limit))
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buf = chunk as Buffer
    size += buf.length
    if (size > limit) throw new BodyError(413, tooLarge(limit))
    chunks.push(buf)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    throw new BodyError(400, `The request body is not valid JSON: ${detail}`)
  }
}

function tooLarge(limit: number): string {
  return `The request body is larger than ${Math.round(limit / 1024 / 1024)} MB; files go through the upload (POST /api/upload), not inside a call.`
}
