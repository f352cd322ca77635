import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FakeReply, FakeRequest, Script } from './server'

/**
 * The Files + Batches endpoints of OpenAI and Anthropic's Message Batches, on the fake server.
 * Each line of a batch is answered by the same script as a direct call, so a batch run and a
 * synchronous run of the same config get the same replies. A batch moves one step per status
 * check (validating → in_progress → finalizing → completed for OpenAI; in_progress → ended for
 * Anthropic), so tests wait on checks, never on time.
 */

export type BatchEvent =
  | { kind: 'upload'; fileId: string }
  | { kind: 'create-start'; format: 'openai' | 'anthropic' }
  | { kind: 'create'; format: 'openai' | 'anthropic'; batchId: string; customIds: string[] }
  | { kind: 'retrieve'; batchId: string; status: string }
  | { kind: 'results-half'; batchId: string; lines: number }
  | { kind: 'cancel'; batchId: string; status: string }

/** What a hook tells the fake to do with the request: carry on (undefined) or drop it. */
export type Verdict = 'drop' | undefined

export interface BatchPlan {
  /** How the batch ends: completed (Anthropic: ended), expired or cancelled (half the lines done). */
  end?: 'completed' | 'expired' | 'cancelled'
  /** Status checks before a batch ends (default 3). */
  steps?: number
  /** Per-line HTTP status instead of a reply (e.g. 400 invalid, 500 server error). */
  lineStatus?: (customId: string, index: number) => number | null
  /** The first download of each results file is cut mid-line and the connection dropped. */
  cutResultsOnce?: boolean
  /** Results are written half, then `onEvent('results-half')` is awaited before the rest. */
  pauseMidResults?: boolean
  /** The first N batch creates get 429 with retry-after 0. */
  create429?: number
}

export interface BatchSubmission {
  format: 'openai' | 'anthropic'
  batchId: string
  customIds: string[]
  bodies: Record<string, unknown>[]
}

interface Stored {
  id: string
  format: 'openai' | 'anthropic'
  lines: { customId: string; body: Record<string, unknown> }[]
  checks: number
  status: string
  createdAt: number
  inputFileId: string | null
  metadata: unknown
  outputs: string[] | null
  errors: string[] | null
  /** Cancel asked for: the next status check ends it with half its lines answered. */
  cancelling?: boolean
}

type Obj = Record<string, unknown>
type Describe = (format: 'openai' | 'anthropic', body: Obj, credential: string | null) => FakeRequest
type Render = (req: FakeRequest, reply: FakeReply) => { status: number; body: Obj }

export class FakeBatches {
  readonly files = new Map<string, string>()
  readonly batches = new Map<string, Stored>()
  readonly submissions: BatchSubmission[] = []
  /** Every upload, create, status check and results download, in order. */
  readonly log: BatchEvent[] = []
  plan: BatchPlan = {}
  /** Told of each event before the reply goes out; `'drop'` on create-start refuses the create unseen. */
  onEvent: ((e: BatchEvent) => Verdict | Promise<Verdict>) | null = null
  private n = 0
  private creates = 0
  private readonly cutDone = new Set<string>()

  constructor(
    private readonly origin: () => string,
    private readonly script: () => Script,
    private readonly describe: Describe,
    private readonly render: Render,
  ) {}

  private async emit(e: BatchEvent): Promise<Verdict> {
    this.log.push(e)
    return await this.onEvent?.(e)
  }

  /** A create the hook chose to lose: the connection drops and no batch exists. */
  private async dropped(format: 'openai' | 'anthropic', res: ServerResponse): Promise<boolean> {
    if ((await this.emit({ kind: 'create-start', format })) !== 'drop') return false
    res.socket?.destroy()
    return true
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    if (res.destroyed) return
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }

  /** Handles a batch endpoint; false when the path is not one. */
  async handle(
    req: IncomingMessage,
    res: ServerResponse,
    text: string,
    credential: string | null,
  ): Promise<boolean> {
    const run = this.route(req, res, text, credential)
    if (!run) return false
    await run()
    return true
  }

  private route(
    req: IncomingMessage,
    res: ServerResponse,
    text: string,
    credential: string | null,
  ): (() => Promise<void> | void) | null {
    const p = new URL(req.url ?? '/', this.origin()).pathname
    const get = req.method === 'GET'
    const post = req.method === 'POST'
    if (post && p === '/v1/files') return () => this.upload(req, res, text)
    let g = /^\/v1\/files\/([^/]+)\/content$/.exec(p)
    if (get && g) return () => this.fileContent(g?.[1] ?? '', res)
    if (post && p === '/v1/batches') return () => this.createOpenAi(JSON.parse(text) as Obj, res)
    if (get && p === '/v1/batches')
      return () => {
        const data = [...this.batches.values()]
          .filter((b) => b.format === 'openai')
          .map((b) => this.openAiView(b))
        this.json(res, 200, { object: 'list', data: data.reverse(), has_more: false })
      }
    g = /^\/v1\/(batches|messages\/batches)\/([^/]+)\/cancel$/.exec(p)
    if (post && g) return () => this.cancel(g?.[2] ?? '', res)
    g = /^\/v1\/batches\/([^/]+)$/.exec(p)
    if (get && g) return () => this.check(g?.[1] ?? '', res, credential)
    if (post && p === '/v1/messages/batches') return () => this.createAnthropic(JSON.parse(text) as Obj, res)
    if (get && p === '/v1/messages/batches')
      return () => {
        const data = [...this.batches.values()]
          .filter((b) => b.format === 'anthropic')
          .map((b) => this.anthropicView(b))
        this.json(res, 200, { data: data.reverse(), has_more: false, first_id: null, last_id: null })
      }
    g = /^\/v1\/messages\/batches\/([^/]+)\/results$/.exec(p)
    if (get && g) return () => this.anthropicResults(g?.[1] ?? '', res)
    g = /^\/v1\/messages\/batches\/([^/]+)$/.exec(p)
    if (get && g) return () => this.check(g?.[1] ?? '', res, credential)
    return null
  }

  private async upload(req: IncomingMessage, res: ServerResponse, text: string): Promise<void> {
    const form = await new Request('http://x/', {
      method: 'POST',
      headers: { 'content-type': String(req.headers['content-type']) },
      body: text,
    }).formData()
    const file = form.get('file')
    const content = file instanceof Blob ? await file.text() : String(file)
    const id = `file-${++this.n}`
    this.files.set(id, content)
    await this.emit({ kind: 'upload', fileId: id })
    this.json(res, 200, {
      id,
      object: 'file',
      bytes: Buffer.byteLength(content),
      created_at: 0,
      filename: 'batch.jsonl',
      purpose: 'batch',
      status: 'processed',
    })
  }

  private refuse429(format: 'openai' | 'anthropic', res: ServerResponse): boolean {
    if (this.creates++ >= (this.plan.create429 ?? 0)) return false
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' })
    res.end(
      JSON.stringify(
        format === 'openai'
          ? { error: { message: 'too many batches', type: 'rate_limit', code: null } }
          : { type: 'error', error: { type: 'rate_limit_error', message: 'too many batches' } },
      ),
    )
    return true
  }

  private async store(b: Stored): Promise<void> {
    this.batches.set(b.id, b)
    this.submissions.push({
      format: b.format,
      batchId: b.id,
      customIds: b.lines.map((l) => l.customId),
      bodies: b.lines.map((l) => l.body),
    })
    await this.emit({
      kind: 'create',
      format: b.format,
      batchId: b.id,
      customIds: b.lines.map((l) => l.customId),
    })
  }

  private async createOpenAi(body: Obj, res: ServerResponse): Promise<void> {
    if (this.refuse429('openai', res) || (await this.dropped('openai', res))) return
    const fileId = String(body.input_file_id)
    const content = this.files.get(fileId)
    if (content === undefined)
      return this.json(res, 404, { error: { message: 'no such file', type: 'x', code: null } })
    const lines = content
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => {
        const o = JSON.parse(l) as { custom_id: string; body: Obj; url: string }
        if (o.url !== '/v1/chat/completions') throw new Error(`fake batch: unexpected url ${o.url}`)
        return { customId: o.custom_id, body: o.body }
      })
    const b: Stored = {
      id: `batch_${++this.n}`,
      format: 'openai',
      lines,
      checks: 0,
      status: 'validating',
      createdAt: Math.floor(Date.now() / 1000),
      inputFileId: fileId,
      metadata: body.metadata ?? null,
      outputs: null,
      errors: null,
    }
    await this.store(b)
    this.json(res, 200, this.openAiView(b))
  }

  private async createAnthropic(body: Obj, res: ServerResponse): Promise<void> {
    if (this.refuse429('anthropic', res) || (await this.dropped('anthropic', res))) return
    const requests = body.requests as { custom_id: string; params: Obj }[]
    const b: Stored = {
      id: `msgbatch_${++this.n}`,
      format: 'anthropic',
      lines: requests.map((r) => ({ customId: r.custom_id, body: r.params })),
      checks: 0,
      status: 'in_progress',
      createdAt: Math.floor(Date.now() / 1000),
      inputFileId: null,
      metadata: null,
      outputs: null,
      errors: null,
    }
    await this.store(b)
    this.json(res, 200, this.anthropicView(b))
  }

  /** A cancel: OpenAI says cancelling, Anthropic canceling; the next status check ends it. */
  private async cancel(id: string, res: ServerResponse): Promise<void> {
    const b = this.batches.get(id)
    if (!b) return this.json(res, 404, { error: { message: 'no such batch', type: 'not_found', code: null } })
    if (b.outputs === null) {
      b.cancelling = true
      if (b.format === 'openai') b.status = 'cancelling'
    }
    await this.emit({ kind: 'cancel', batchId: id, status: b.status })
    this.json(res, 200, b.format === 'openai' ? this.openAiView(b) : this.anthropicView(b))
  }

  /** One status check: the batch moves one step, and its results exist once it ends. */
  private async check(id: string, res: ServerResponse, credential: string | null): Promise<void> {
    const b = this.batches.get(id)
    if (!b) return this.json(res, 404, { error: { message: 'no such batch', type: 'not_found', code: null } })
    b.checks++
    const steps = this.plan.steps ?? 3
    const end = this.plan.end ?? 'completed'
    if (b.outputs === null) {
      if (b.cancelling) this.finish(b, 'cancelled', credential)
      else if (b.checks >= steps) this.finish(b, end, credential)
      else if (b.format === 'openai') b.status = b.checks >= steps - 1 ? 'finalizing' : 'in_progress'
    }
    await this.emit({ kind: 'retrieve', batchId: id, status: b.status })
    this.json(res, 200, b.format === 'openai' ? this.openAiView(b) : this.anthropicView(b))
  }

  private finish(b: Stored, end: NonNullable<BatchPlan['end']>, credential: string | null): void {
    const outputs: string[] = []
    const errors: string[] = []
    const cutoff = end === 'completed' ? b.lines.length : Math.ceil(b.lines.length / 2)
    b.lines.forEach((l, i) => {
      if (i >= cutoff) {
        if (b.format === 'openai') {
          const code = end === 'expired' ? 'batch_expired' : 'batch_cancelled'
          errors.push(
            JSON.stringify({
              id: `r${i}`,
              custom_id: l.customId,
              response: null,
              error: { code, message: code },
            }),
          )
        } else
          outputs.push(
            JSON.stringify({
              custom_id: l.customId,
              result: { type: end === 'expired' ? 'expired' : 'canceled' },
            }),
          )
        return
      }
      const status = this.plan.lineStatus?.(l.customId, i) ?? null
      const fake = this.describe(b.format, l.body, credential)
      const rendered =
        status !== null
          ? this.render(fake, { kind: 'status', status, message: `fake line status ${status}` })
          : this.render(fake, this.script()(fake, i))
      if (b.format === 'openai') {
        const line = JSON.stringify({
          id: `r${i}`,
          custom_id: l.customId,
          response: { status_code: rendered.status, request_id: `req_${i}`, body: rendered.body },
          error: null,
        })
        ;(rendered.status === 200 ? outputs : errors).push(line)
      } else if (rendered.status === 200) {
        outputs.push(
          JSON.stringify({ custom_id: l.customId, result: { type: 'succeeded', message: rendered.body } }),
        )
      } else {
        outputs.push(
          JSON.stringify({ custom_id: l.customId, result: { type: 'errored', error: rendered.body } }),
        )
      }
    })
    b.outputs = outputs
    b.errors = errors
    b.status = b.format === 'anthropic' ? 'ended' : end
  }

  private fileIds(b: Stored): { out: string | null; err: string | null } {
    if (b.outputs === null || b.format !== 'openai') return { out: null, err: null }
    const out = `${b.id}-output`
    const err = `${b.id}-errors`
    this.files.set(out, b.outputs.map((l) => `${l}\n`).join(''))
    this.files.set(err, (b.errors ?? []).map((l) => `${l}\n`).join(''))
    return { out: b.outputs.length > 0 ? out : null, err: (b.errors ?? []).length > 0 ? err : null }
  }

  private openAiView(b: Stored): Obj {
    const { out, err } = this.fileIds(b)
    const done = b.outputs === null ? 0 : b.outputs.length
    const failed = b.errors === null ? 0 : b.errors.length
    return {
      id: b.id,
      object: 'batch',
      endpoint: '/v1/chat/completions',
      input_file_id: b.inputFileId,
      completion_window: '24h',
      status: b.status,
      output_file_id: out,
      error_file_id: err,
      created_at: b.createdAt,
      request_counts: { total: b.lines.length, completed: done, failed },
      metadata: b.metadata,
    }
  }

  private anthropicView(b: Stored): Obj {
    const ended = b.outputs !== null
    const count = (type: string) =>
      ended
        ? (b.outputs ?? []).filter(
            (l) => (JSON.parse(l) as { result: { type: string } }).result.type === type,
          ).length
        : 0
    return {
      id: b.id,
      type: 'message_batch',
      processing_status: ended ? 'ended' : b.cancelling ? 'canceling' : 'in_progress',
      request_counts: {
        processing: ended ? 0 : b.lines.length,
        succeeded: count('succeeded'),
        errored: count('errored'),
        canceled: count('canceled'),
        expired: count('expired'),
      },
      created_at: new Date(b.createdAt * 1000).toISOString(),
      ended_at: ended ? new Date().toISOString() : null,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      cancel_initiated_at: null,
      archived_at: null,
      results_url: ended ? `${this.origin()}/v1/messages/batches/${b.id}/results` : null,
    }
  }

  /** Writes a results file, honouring the plan's cut and pause. */
  private async stream(key: string, batchId: string, content: string, res: ServerResponse): Promise<void> {
    res.writeHead(200, { 'content-type': 'application/binary' })
    if (this.plan.cutResultsOnce && !this.cutDone.has(key) && content.length > 0) {
      this.cutDone.add(key)
      const lines = content.split('\n')
      const half = lines.slice(0, Math.max(1, Math.floor(lines.length / 2))).join('\n')
      // Whole lines, then half of the next one, then the connection drops.
      const next = lines[Math.max(1, Math.floor(lines.length / 2))] ?? ''
      res.write(`${half}\n${next.slice(0, Math.floor(next.length / 2))}`)
      await new Promise((r) => setTimeout(r, 20))
      res.socket?.destroy()
      return
    }
    if (this.plan.pauseMidResults) {
      const lines = content.split('\n').filter((l) => l !== '')
      const half = Math.max(1, Math.floor(lines.length / 2))
      res.write(`${lines.slice(0, half).join('\n')}\n`)
      await this.emit({ kind: 'results-half', batchId, lines: half })
      if (res.destroyed) return
      res.end(
        lines
          .slice(half)
          .map((l) => `${l}\n`)
          .join(''),
      )
      return
    }
    res.end(content)
  }

  private async fileContent(id: string, res: ServerResponse): Promise<void> {
    const content = this.files.get(id)
    if (content === undefined)
      return this.json(res, 404, { error: { message: 'no such file', type: 'x', code: null } })
    await this.stream(id, id.replace(/-(output|errors)$/, ''), content, res)
  }

  private async anthropicResults(id: string, res: ServerResponse): Promise<void> {
    const b = this.batches.get(id)
    if (!b || b.outputs === null)
      return this.json(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'no results' } })
    await this.stream(id, id, b.outputs.map((l) => `${l}\n`).join(''), res)
  }
}
