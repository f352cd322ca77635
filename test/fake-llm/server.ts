import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { FakeBatches } from './batches'
import { PromptCacheSim } from './promptCache'
import { Waker } from './waker'

/**
 * A test fixture that speaks OpenAI Chat Completions (`/v1/chat/completions`) and Anthropic
 * Messages (`/v1/messages`) on 127.0.0.1, replying from a script so every fault the engine
 * must classify can be produced on demand.
 */
export type FakeReply =
  | { kind: 'tool'; arguments: string | Record<string, unknown> }
  | { kind: 'text'; text: string }
  | { kind: 'empty' }
  | { kind: 'status'; status: number; retryAfter?: string; message?: string }
  | { kind: 'slow'; delayMs: number; reply: FakeReply }
  | { kind: 'drop' }

export interface FakeRequest {
  format: 'openai' | 'anthropic'
  body: Record<string, unknown>
  /** Name of the forced tool, when the request forced one. */
  toolName: string | null
  /** The tool's JSON Schema, when the request carried a tool. */
  schema: { properties?: Record<string, unknown> } | null
  /** All user message text, joined. */
  userText: string
  /** True when the schema came inside the prompt (JSON-in-text fallback), not as a tool. */
  inText: boolean
  /** True when the schema came as `response_format: json_schema` (constrained decoding). */
  jsonSchema: boolean
  /** The credential the client sent (Authorization bearer or x-api-key). */
  credential: string | null
  /** The HTTP headers it came with (none for a line of a batch). */
  headers?: IncomingHttpHeaders
}

export type Script = (req: FakeRequest, index: number) => FakeReply

export interface FakeServer {
  /** Base URL for the openai SDK (ends in /v1). */
  openaiUrl: string
  /** Base URL for the anthropic SDK (the origin). */
  anthropicUrl: string
  calls(): number
  /** Every request served, in order (empty when started with `keepRequests: false`). */
  requests: FakeRequest[]
  /** The most requests it held at once since the last call (answered ones leave when written). */
  takePeakInFlight(): number
  setScript(script: Script): void
  setLatency(ms: number): void
  /** Files, Batches and Message Batches (see batches.ts). */
  batches: FakeBatches
  close(): Promise<void>
}

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

export function describe(format: FakeRequest['format'], body: Obj, credential: string | null): FakeRequest {
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObj) : []
  const first = tools[0]
  let schema: FakeRequest['schema'] = null
  let toolName: string | null = null
  if (first) {
    const fn = format === 'openai' && isObj(first.function) ? first.function : first
    schema = (format === 'openai' ? fn.parameters : fn.input_schema) as FakeRequest['schema']
  }
  const choice = body.tool_choice
  if (isObj(choice)) {
    if (format === 'openai' && isObj(choice.function)) toolName = String(choice.function.name)
    if (format === 'anthropic' && typeof choice.name === 'string') toolName = choice.name
  }
  const messages = Array.isArray(body.messages) ? body.messages.filter(isObj) : []
  const userText = messages
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n')
  let inText = false
  let jsonSchema = false
  const responseFormat = body.response_format
  if (
    !schema &&
    isObj(responseFormat) &&
    responseFormat.type === 'json_schema' &&
    isObj(responseFormat.json_schema)
  ) {
    schema = responseFormat.json_schema.schema as FakeRequest['schema']
    jsonSchema = true
  }
  if (!schema) {
    const line = userText.split('\n').find((l) => l.startsWith('{"') && l.includes('"properties"'))
    if (line) {
      schema = JSON.parse(line) as FakeRequest['schema']
      inText = true
    }
  }
  return { format, body, toolName, schema, userText, inText, jsonSchema, credential }
}

const tokens = (s: string) => Math.max(1, Math.ceil(s.length / 4))

function openaiBody(
  req: FakeRequest,
  reply: FakeReply & { kind: 'tool' | 'text' | 'empty' },
  cache: PromptCacheSim,
): Obj {
  const usage = {
    prompt_tokens: tokens(JSON.stringify(req.body)),
    completion_tokens: 0,
    total_tokens: 0,
    prompt_tokens_details: { cached_tokens: 0 },
  }
  usage.prompt_tokens_details.cached_tokens = Math.min(cache.openai(req.body), usage.prompt_tokens)
  const base = { id: 'chatcmpl-fake', object: 'chat.completion', created: 0, model: String(req.body.model) }
  if (reply.kind === 'empty') return { ...base, choices: [], usage }
  let message: Obj
  if (reply.kind === 'tool') {
    const args = typeof reply.arguments === 'string' ? reply.arguments : JSON.stringify(reply.arguments)
    usage.completion_tokens = tokens(args)
    message = {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_fake', type: 'function', function: { name: req.toolName ?? 'tool', arguments: args } },
      ],
    }
  } else {
    usage.completion_tokens = tokens(reply.text)
    message = { role: 'assistant', content: reply.text }
  }
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens
  const finish = reply.kind === 'tool' ? 'tool_calls' : 'stop'
  return { ...base, choices: [{ index: 0, message, finish_reason: finish, logprobs: null }], usage }
}

function anthropicBody(
  req: FakeRequest,
  reply: FakeReply & { kind: 'tool' | 'text' | 'empty' },
  cache: PromptCacheSim,
): Obj {
  // input_tokens counts only what was neither read from nor written to the cache.
  const c = cache.anthropic(req.body)
  const usage = {
    input_tokens: Math.max(1, tokens(JSON.stringify(req.body)) - c.read - c.write),
    output_tokens: 0,
    cache_read_input_tokens: c.read,
    cache_creation_input_tokens: c.write,
  }
  let content: Obj[] = []
  if (reply.kind === 'tool') {
    // Anthropic sends parsed input; "invalid JSON" cannot exist on this wire, so a string
    // that does not parse is sent as a string value, which the method must still refuse.
    let input: unknown = reply.arguments
    if (typeof reply.arguments === 'string') {
      try {
        input = JSON.parse(reply.arguments)
      } catch {
        input = { raw: reply.arguments }
      }
    }
    content = [{ type: 'tool_use', id: 'toolu_fake', name: req.toolName ?? 'tool', input }]
    usage.output_tokens = tokens(JSON.stringify(input))
  } else if (reply.kind === 'text') {
    content = [{ type: 'text', text: reply.text }]
    usage.output_tokens = tokens(reply.text)
  }
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: String(req.body.model),
    content,
    stop_reason: reply.kind === 'tool' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage,
  }
}

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
}

/** A reply as one JSON body with its status (batch lines have no sockets to drop or stall). */
export function renderReply(
  fake: FakeRequest,
  reply: FakeReply,
  cache: PromptCacheSim,
): { status: number; body: Obj } {
  if (reply.kind === 'slow') return renderReply(fake, reply.reply, cache)
  if (reply.kind === 'drop') return renderReply(fake, { kind: 'status', status: 500 }, cache)
  if (reply.kind === 'status') {
    const message = reply.message ?? `fake status ${reply.status}`
    return {
      status: reply.status,
      body:
        fake.format === 'openai'
          ? { error: { message, type: 'fake', code: null } }
          : { type: 'error', error: { type: ANTHROPIC_ERROR_TYPES[reply.status] ?? 'api_error', message } },
    }
  }
  return {
    status: 200,
    body: fake.format === 'openai' ? openaiBody(fake, reply, cache) : anthropicBody(fake, reply, cache),
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export async function startFakeLlm(opts: {
  script: Script
  latencyMs?: number
  /**
   * False for a server that answers thousands of requests nobody reads back (the bench's own
   * process): kept, they grew its heap and its garbage collection on the cores it shares.
   */
  keepRequests?: boolean
  /**
   * How long an idle connection stays open (10 s unless set). A fake that outlives many runs
   * keeps them longer: closing one just as a client takes it up again fails that request.
   */
  keepAliveMs?: number
}): Promise<FakeServer> {
  let script = opts.script
  let latency = opts.latencyMs ?? 0
  let count = 0
  const requests: FakeRequest[] = []
  const cache = new PromptCacheSim()
  // Answers exactly its latency after a request arrives: the bench compares the engine with a
  // server that does, so the fake's own timing error must not be counted (see waker.ts).
  const waker = new Waker()

  async function respond(fake: FakeRequest, reply: FakeReply, res: ServerResponse): Promise<void> {
    if (reply.kind === 'slow') {
      await sleep(reply.delayMs)
      if (res.destroyed || res.writableEnded) return
      return respond(fake, reply.reply, res)
    }
    if (reply.kind === 'drop') {
      res.socket?.destroy()
      return
    }
    if (reply.kind === 'status') {
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (reply.retryAfter !== undefined) headers['retry-after'] = reply.retryAfter
      res.writeHead(reply.status, headers)
      const message = reply.message ?? `fake status ${reply.status}`
      res.end(
        JSON.stringify(
          fake.format === 'openai'
            ? { error: { message, type: 'fake', code: null } }
            : { type: 'error', error: { type: 'fake', message } },
        ),
      )
      return
    }
    const body = fake.format === 'openai' ? openaiBody(fake, reply, cache) : anthropicBody(fake, reply, cache)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }

  let origin = ''
  const batches = new FakeBatches(
    () => origin,
    () => script,
    describe,
    (f, r) => renderReply(f, r, cache),
  )
  let inFlight = 0
  let peak = 0
  const server = createServer((req, res) => {
    inFlight++
    peak = Math.max(peak, inFlight)
    res.once('close', () => {
      inFlight--
    })
    // A provider's latency runs from the moment the request reaches it, and its own work to
    // answer happens within that time: so is the fake's (it prepares the reply while it waits).
    void serve(req, res, performance.now() + latency)
  })
  async function serve(req: IncomingMessage, res: ServerResponse, due: number): Promise<void> {
    const text = await readBody(req)
    const auth = req.headers.authorization?.replace(/^Bearer\s+/i, '') ?? req.headers['x-api-key']
    const credential = typeof auth === 'string' ? auth : null
    const format =
      req.method !== 'POST'
        ? null
        : req.url === '/v1/chat/completions'
          ? 'openai'
          : req.url === '/v1/messages'
            ? 'anthropic'
            : null
    // The batch API has none of the two completion paths: only other requests go through its
    // router, which parses the URL and tries a dozen patterns (a share of the fake's CPU per reply).
    if (!format) {
      if (!(await batches.handle(req, res, text, credential))) res.writeHead(404).end()
      return
    }
    let body: Obj = {}
    try {
      const parsed: unknown = JSON.parse(text)
      if (isObj(parsed)) body = parsed
    } catch {
      res.writeHead(400).end()
      return
    }
    const fake = { ...describe(format, body, credential), headers: req.headers }
    const index = count++
    if (opts.keepRequests !== false) requests.push(fake)
    const reply = script(fake, index)
    const ready = reply.kind === 'tool' || reply.kind === 'text' || reply.kind === 'empty'
    const rendered = ready
      ? JSON.stringify(
          fake.format === 'openai' ? openaiBody(fake, reply, cache) : anthropicBody(fake, reply, cache),
        )
      : null
    // The status line and headers too: writeHead only lays them out, end() sends them with the body.
    if (rendered !== null)
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(rendered)),
      })
    await waker.at(due)
    if (rendered === null) return respond(fake, reply, res)
    res.end(rendered)
  }
  // Connections are reused like a real provider's; close() ends them all, so nothing lingers.
  server.keepAliveTimeout = opts.keepAliveMs ?? 10_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  if (latency > 0) await waker.start()
  const { port } = server.address() as AddressInfo
  origin = `http://127.0.0.1:${port}`
  return {
    openaiUrl: `${origin}/v1`,
    anthropicUrl: origin,
    calls: () => count,
    requests,
    takePeakInFlight() {
      const p = peak
      peak = inFlight
      return p
    },
    setScript(s) {
      script = s
    },
    setLatency(ms) {
      latency = ms
      if (ms > 0) void waker.start()
    },
    batches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }).then(() => waker.close()),
  }
}

type JsonSchema = {
  type?: unknown
  enum?: unknown[]
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  anyOf?: JsonSchema[]
  const?: unknown
}

/**
 * A value that satisfies a JSON Schema, choosing `verdict` wherever an enum allows it: enough
 * for every method's tool to get a well-formed answer (arrays get one entry, numbered 1).
 */
export function fillSchema(schema: JsonSchema | undefined, verdict: string): unknown {
  if (!schema) return null
  if (schema.const !== undefined) return schema.const
  if (Array.isArray(schema.enum)) return schema.enum.includes(verdict) ? verdict : schema.enum[0]
  if (schema.anyOf) return fillSchema(schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0], verdict)
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([k, v]) => [k, fillSchema(v, verdict)]),
      )
    case 'array':
      return [fillSchema(schema.items, verdict)]
    case 'number':
    case 'integer':
      return 1
    case 'boolean':
      return true
    case 'null':
      return null
    default:
      return 'a supporting excerpt'
  }
}

/** Arguments for the request's tool with `verdict` in every enum that allows it. */
export function toolArgsFor(req: FakeRequest, verdict: string): Record<string, unknown> {
  return (fillSchema({ type: 'object', ...(req.schema as JsonSchema) }, verdict) ?? {}) as Record<
    string,
    unknown
  >
}

/** A script that answers every tool request with `verdict` everywhere, and text requests with it. */
export function answerAll(verdict: string): Script {
  return (req) => {
    if (!req.schema) return { kind: 'text', text: verdict }
    const args = toolArgsFor(req, verdict)
    if (req.jsonSchema) return { kind: 'text', text: JSON.stringify(args) }
    if (req.inText) return { kind: 'text', text: `Sure.\n\`\`\`json\n${JSON.stringify(args)}\n\`\`\`` }
    return { kind: 'tool', arguments: args }
  }
}

/**
 * A local server that ignores JSON instructions in the prompt (a small model wandering off the
 * format): it writes prose unless the request constrains its output with `response_format:
 * json_schema`, in which case the reply is exactly the schema's JSON.
 */
export function ignoresPromptJson(verdict: string): Script {
  return (req) => {
    if (req.jsonSchema) return { kind: 'text', text: JSON.stringify(toolArgsFor(req, verdict)) }
    if (req.schema && !req.inText) return { kind: 'tool', arguments: toolArgsFor(req, verdict) }
    return {
      kind: 'text',
      text: 'Having read the passage carefully, I believe these statements hold up well.',
    }
  }
}
