import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'

/**
 * A lean `fetch` for the SDKs' `fetch` option: one buffered request over a keep-alive agent.
 * Verdict calls are small, non-streaming JSON exchanges, and at high concurrency the general
 * purpose fetch costs about half again as much CPU per call. Anything this does not handle
 * (streamed bodies) goes to the global fetch.
 */
const agents = {
  'http:': new HttpAgent({ keepAlive: true, maxSockets: 256 }),
  'https:': new HttpsAgent({ keepAlive: true, maxSockets: 256 }),
}

function headersOf(res: IncomingMessage): Headers {
  const h = new Headers()
  for (const [k, v] of Object.entries(res.headers)) {
    if (typeof v === 'string') h.set(k, v)
    else if (Array.isArray(v)) for (const one of v) h.append(k, one)
  }
  return h
}

export async function leanFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const body = init?.body
  const simpleBody =
    body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array
  if (input instanceof Request || !simpleBody) return fetch(input, init)
  const url = new URL(input)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fetch(input, init)
  const headers: Record<string, string> = {}
  new Headers(init?.headers).forEach((v, k) => {
    headers[k] = v
  })
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<Response>((resolve, reject) => {
    const req = send(
      url,
      {
        method: init?.method ?? 'GET',
        headers,
        agent: agents[url.protocol as 'http:' | 'https:'],
        ...(init?.signal ? { signal: init.signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const status = res.statusCode ?? 502
          // Response refuses a body on these statuses.
          const payload = status === 204 || status === 304 ? null : Buffer.concat(chunks)
          resolve(
            new Response(payload, { status, statusText: res.statusMessage ?? '', headers: headersOf(res) }),
          )
        })
        res.on('error', reject)
        res.on('aborted', () => reject(new Error('the connection closed before the reply was complete')))
      },
    )
    req.on('error', reject)
    req.end(body ?? undefined)
  })
}
