import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { SendHooks } from './client'

/**
 * A lean `fetch` for the SDKs' `fetch` option: one buffered request over a keep-alive agent.
 * Verdict calls are small, non-streaming JSON exchanges, and at high concurrency the general
 * purpose fetch costs about half again as much CPU per call. Anything this does not handle
 * (streamed bodies) goes to the global fetch.
 */
// Connections are kept open between calls and shared by every run. They have no cap of their
// own: each run's concurrency gate bounds its requests, and a cap per origin would make the
// requests of two runs against one server queue here, their timeouts running, once their
// concurrencies added up past it.
const agents = {
  'http:': new HttpAgent({ keepAlive: true }),
  'https:': new HttpsAgent({ keepAlive: true }),
}

// Response's type declares its readers as properties, which a subclass may not redefine as
// methods; at run time they are methods on its prototype like any other.
const ResponseBase = Response as unknown as new (
  body: null,
  init: ResponseInit,
) => Pick<Response, 'headers' | 'status' | 'statusText'>

/**
 * A reply whose body has already arrived whole. A Response built around the bytes wraps them
 * in a web stream that `text()` then reads back chunk by chunk: at 128 calls in flight that
 * stream, its reader and their garbage were a tenth of the client's CPU. This one is a real
 * Response (status, headers, instanceof) made without a body, whose readers return the bytes
 * held here; the stream is only made if someone asks for `body`.
 */
class BufferedResponse extends ResponseBase {
  readonly #bytes: Buffer
  #used = false
  #stream: ReadableStream<Uint8Array> | null = null

  constructor(bytes: Buffer, init: ResponseInit) {
    super(null, init)
    this.#bytes = bytes
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#stream === null) {
      const bytes = this.#bytes
      this.#stream = new ReadableStream({
        start(c) {
          if (bytes.length > 0) c.enqueue(new Uint8Array(bytes))
          c.close()
        },
      })
    }
    return this.#stream
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#stream?.locked ?? false)
  }

  /** The bytes, once: reading a body twice fails as it does on any Response. */
  #take(): Buffer {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read')
    this.#used = true
    return this.#bytes
  }

  async text(): Promise<string> {
    return this.#take().toString('utf8')
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.#take().toString('utf8'))
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = this.#take()
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await this.arrayBuffer())
  }

  async blob(): Promise<Blob> {
    const type = this.headers.get('content-type')
    return new Blob([await this.arrayBuffer()], type ? { type } : {})
  }

  clone(): Response {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.')
    return new BufferedResponse(this.#bytes, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    }).asResponse()
  }

  /** What it is at run time: a Response whose readers are the ones above. */
  asResponse(): Response {
    return this as unknown as Response
  }
}

/** The reply's headers as name/value pairs, repeated names kept (Set-Cookie and the like). */
function headerPairs(res: IncomingMessage): [string, string][] {
  const raw = res.rawHeaders
  const pairs: [string, string][] = []
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i] as string, raw[i + 1] as string])
  return pairs
}

/** The request's headers as Node wants them, read straight from a Headers object when given one. */
function plainHeaders(given: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {}
  if (given === undefined) return out
  const headers = given instanceof Headers ? given : new Headers(given)
  headers.forEach((v, k) => {
    out[k] = v
  })
  return out
}

interface Target {
  protocol: 'http:' | 'https:'
  hostname: string
  port: string
  path: string
  /** `user:password` from the URL, as Node's own URL handling passes it on. */
  auth: string | null
}

/**
 * Parsed once per URL: a run sends thousands of requests to the same one or two. Batch polling
 * names a new URL per batch and file, so the cache starts over past a few hundred.
 */
const targets = new Map<string, Target | null>()
const TARGETS_KEPT = 256

function targetOf(input: string | URL): Target | null {
  const key = String(input)
  let t = targets.get(key)
  if (t === undefined) {
    const url = new URL(key)
    t =
      url.protocol === 'http:' || url.protocol === 'https:'
        ? {
            protocol: url.protocol,
            // Node wants an IPv6 literal without its brackets.
            hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
            port: url.port,
            path: `${url.pathname}${url.search}`,
            auth:
              url.username || url.password
                ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
                : null,
          }
        : null
    // Keys differ only by query string (paged list calls); bounded so they cannot pile up.
    if (targets.size >= TARGETS_KEPT) targets.clear()
    targets.set(key, t)
  }
  return t
}

/**
 * The key under which a request's SendHooks ride in the SDKs' per-request `fetchOptions`, which
 * both spread into the init they hand to `fetch`.
 */
export const SEND_HOOKS = 'factlabSendHooks'

type HookedRequestInit = RequestInit & { [SEND_HOOKS]?: SendHooks }

export async function leanFetch(input: string | URL | Request, init?: HookedRequestInit): Promise<Response> {
  const hooks = init?.[SEND_HOOKS]
  if (hooks) {
    await hooks.beforeSend()
    init?.signal?.throwIfAborted()
  }
  const body = init?.body
  const simpleBody =
    body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array
  if (input instanceof Request || !simpleBody) return fetch(input, init)
  const target = targetOf(input)
  if (target === null) return fetch(input, init)
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<Response>((resolve, reject) => {
    const req = send(
      {
        protocol: target.protocol,
        hostname: target.hostname,
        ...(target.port ? { port: target.port } : {}),
        ...(target.auth !== null ? { auth: target.auth } : {}),
        path: target.path,
        method: init?.method ?? 'GET',
        headers: plainHeaders(init?.headers),
        agent: agents[target.protocol],
        ...(init?.signal ? { signal: init.signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const status = res.statusCode ?? 502
          const handedOn = hooks?.replied?.(status) ?? false
          const respond = () => {
            const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
            const head = { status, statusText: res.statusMessage ?? '', headers: headerPairs(res) }
            // Response refuses a body on these statuses.
            resolve(
              status === 204 || status === 304
                ? new Response(null, head)
                : new BufferedResponse(bytes, head).asResponse(),
            )
          }
          // The request let go writes to its socket once this turn's promise callbacks have run,
          // and the SDK would read this reply in them: a turn later, it goes first, and so does
          // building the reply's Response.
          if (handedOn) setImmediate(respond)
          else respond()
        })
        res.on('error', reject)
        res.on('aborted', () => reject(new Error('the connection closed before the reply was complete')))
      },
    )
    req.on('error', reject)
    req.end(body ?? undefined)
  })
}
