/**
 * Batch and prompt-cache bars: money per 1,000 facts in batch mode against call by call (FaaF and
 * Prompt(T/F)), Prompt(T/F) with prompt caching against without, the rate of reading a
 * 100,000-line batch results file into verdicts against a bare better-sqlite3 insert of the same
 * verdict rows, and calls submitted twice across resumes.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Workspace } from '../../src/main/app/workspace'
import type { BatchApi, BatchState } from '../../src/main/providers/batch'
import { anthropicResult } from '../../src/main/providers/batch/anthropicBatch'
import { saveModel } from '../../src/main/providers/models'
import { DEFAULT_CAPABILITIES } from '../../src/main/providers/types'
import { createRuns, type RunRequest } from '../../src/main/runs/create'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { batchEngine } from '../batches/helpers'
import { answerAll, startFakeLlm } from '../fake-llm/server'
import { ingestCeiling } from './ingestCeiling'
import { mainThreadCpuMs, mainThreadFaults, pageFaultMicros } from './mainThread'
import { figure, info, infoRate } from './record'
import { windowProfile } from './windowProfile'

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000

/** Items whose answer is a long passage (about 1,500 tokens), with `facts` facts each. */
function benchWorkspace(root: string, items: number, facts: number): { ws: Workspace; datasetId: number } {
  const ws = Workspace.open(join(root, `ws-${Math.random().toString(36).slice(2)}.factlab`))
  const ds = createDataset(ws.db, { name: 'd', labelSchema: FAAF_SCHEMA })
  ws.db.transaction(() => {
    for (let i = 0; i < items; i++) {
      const item = ws.content.insertItem(
        ds.id,
        { extId: `q${i}`, question: `Question ${i}?`, reference: 'R.' },
        i,
      )
      const answer = Array.from(
        { length: 120 },
        (_, k) => `Sentence ${k} of answer ${i} states one particular detail.`,
      ).join(' ')
      ws.content.insertCandidate(item, { variant: 'answer', text: answer })
      for (let f = 0; f < facts; f++)
        ws.content.insertUnit(item, { kind: 'fact', text: `Fact ${f} of item ${i}.` })
    }
  })()
  return { ws, datasetId: ds.id }
}

const PRICES = { openai: { in: 2.5, out: 10 }, anthropic: { in: 3, out: 15 } }

function price(ws: Workspace, urls: { openai: string; anthropic: string }): void {
  for (const p of ['openai', 'anthropic'] as const)
    saveModel(ws.db, {
      provider: p,
      model: 'bench',
      baseUrl: urls[p],
      capabilities: DEFAULT_CAPABILITIES[p],
      priceInputPerMTok: PRICES[p].in,
      priceOutputPerMTok: PRICES[p].out,
    })
}

/** Cost of one run on a fresh fake server (so no run reads another's prompt cache). */
async function costOf(root: string, r: Omit<RunRequest, 'datasetId' | 'baseUrl' | 'model'>, facts: number) {
  const fake = await startFakeLlm({
    script: (req, i) => (req.schema ? answerAll('true')(req, i) : { kind: 'text', text: 'True' }),
  })
  const { ws, datasetId } = benchWorkspace(root, 100, facts)
  price(ws, { openai: fake.openaiUrl, anthropic: fake.anthropicUrl })
  const [id] = createRuns(ws.db, {
    ...r,
    datasetId,
    model: 'bench',
    baseUrl: r.provider === 'openai' ? fake.openaiUrl : fake.anthropicUrl,
    cache: false,
    concurrency: 16,
  })
  const s = await batchEngine(ws).start(id!)
  ws.close()
  await fake.close()
  if (s.status !== 'done') throw new Error(`bench run ended ${s.status}`)
  return (s.cost / (100 * facts)) * 1000
}

/**
 * Calls submitted twice across resumes. The kill tests (test/batches/kill.test.ts) count this
 * with a SIGKILL in every batch state; here the same count over a run interrupted after every
 * batch it creates: each create pauses the run (before the batch id is stored), and the next
 * start picks it up.
 */
export async function benchBatchResubmits(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'factlab-bench-resume-'))
  const fake = await startFakeLlm({
    script: (req, i) => (req.schema ? answerAll('true')(req, i) : { kind: 'text', text: 'True' }),
  })
  try {
    const { ws, datasetId } = benchWorkspace(root, 40, 5)
    const [id] = createRuns(ws.db, {
      datasetId,
      provider: 'openai',
      model: 'bench',
      baseUrl: fake.openaiUrl,
      method: 'prompt-tf',
      mode: 'batch',
      cache: false,
    })
    let engine = batchEngine(ws, { maxRequests: 25, maxBytes: 10 * 1024 ** 2 })
    fake.batches.onEvent = (e) => {
      if (e.kind === 'create') engine.pause(id!)
      return undefined
    }
    let starts = 0
    for (;;) {
      starts++
      const s = await engine.start(id!)
      if (s.status === 'done') break
      engine = batchEngine(ws, { maxRequests: 25, maxBytes: 10 * 1024 ** 2 })
    }
    const seen = new Map<string, number>()
    for (const s of fake.batches.submissions)
      for (const b of s.bodies) seen.set(JSON.stringify(b), (seen.get(JSON.stringify(b)) ?? 0) + 1)
    const twice = [...seen.values()].filter((n) => n > 1).length
    ws.close()
    const submitted = [...seen.values()].length
    figure(
      'calls submitted once / calls submitted, after resumes in every batch state',
      (submitted - twice) / submitted,
      '',
      1,
      'min',
      `${twice} of ${submitted} submitted twice; 200 calls in ${fake.batches.submissions.length} batches over ${starts} starts`,
    )
  } finally {
    await fake.close()
    rmSync(root, { recursive: true, force: true })
  }
}

export async function benchBatchCost(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'factlab-bench-batch-'))
  try {
    for (const provider of ['openai', 'anthropic'] as const)
      for (const method of ['faaf-tf', 'prompt-tf'] as const) {
        const sync = await costOf(root, { provider, method }, 10)
        const batch = await costOf(root, { provider, method, mode: 'batch' }, 10)
        const ratio = batch / sync
        figure(
          `${provider} ${method}: cost per 1,000 facts, batch / synchronous`,
          ratio,
          '',
          0.5,
          'max',
          `${sync.toFixed(4)} call by call, ${batch.toFixed(4)} in batch`,
        )
      }
    const cached = await costOf(root, { provider: 'anthropic', method: 'prompt-tf' }, 10)
    const plain = await costOf(
      root,
      { provider: 'anthropic', method: 'prompt-tf', settings: { promptCache: false } },
      10,
    )
    const r = cached / plain
    figure(
      'anthropic prompt-tf, 10 facts per 1,500-token passage: cost with prompt caching / without',
      r,
      '',
      0.6,
      'max',
      `per 1,000 facts ${cached.toFixed(4)} with, ${plain.toFixed(4)} without`,
    )
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

/**
 * A batch API that answers at once from memory: the create call writes the results file (one
 * JSONL line per request, every one answered "True", in Anthropic's result format), the batch has
 * ended by the first check, and reading the results parses that file line by line with the
 * provider module's own reader, as a download would.
 */
function memoryBatchApi(onResultsStart: () => void): BatchApi {
  let results: string[] = []
  const state: BatchState = {
    id: 'msgbatch_bench',
    phase: 'ended',
    providerStatus: 'ended',
    counts: { total: 0, succeeded: 0, errored: 0, processing: 0 },
    outputFileId: null,
    errorFileId: null,
    error: null,
  }
  const ended = () => ({
    ...state,
    counts: { ...state.counts, total: results.length, succeeded: results.length },
  })
  return {
    provider: 'anthropic',
    limits: { maxRequests: 1_000_000, maxBytes: 4 * 1024 ** 3 },
    lineOf: (customId, body) => JSON.stringify({ custom_id: customId, params: body }),
    upload: async () => null,
    create: async (input) => {
      results = input.lines.map((l) =>
        JSON.stringify({
          custom_id: (JSON.parse(l) as { custom_id: string }).custom_id,
          result: {
            type: 'succeeded',
            message: {
              id: 'msg',
              type: 'message',
              role: 'assistant',
              model: 'bench',
              content: [{ type: 'text', text: 'True' }],
              stop_reason: 'end_turn',
              stop_sequence: null,
              usage: { input_tokens: 400, output_tokens: 1 },
            },
          },
        }),
      )
      return ended()
    },
    findCreated: async () => null,
    retrieve: async () => ended(),
    cancel: async () => ended(),
    results: async (_s, onResult) => {
      onResultsStart()
      for (const l of results) {
        const r = anthropicResult(JSON.parse(l))
        if (r) onResult(r)
      }
    },
  }
}

export async function benchBatchIngest(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'factlab-bench-ingest-'))
  const N = Number(process.env.FACTLAB_BENCH_INGEST ?? 100_000)
  try {
    const items = N / 10
    const ws = Workspace.open(join(root, 'ingest.factlab'))
    const ds = createDataset(ws.db, { name: 'd', labelSchema: FAAF_SCHEMA })
    ws.db.transaction(() => {
      for (let i = 0; i < items; i++) {
        const item = ws.content.insertItem(ds.id, { extId: `q${i}`, question: `Q${i}?`, reference: 'R.' }, i)
        ws.content.insertCandidate(item, { variant: 'answer', text: `Answer ${i} is short.` })
        for (let f = 0; f < 10; f++) ws.content.insertUnit(item, { kind: 'fact', text: `Fact ${f} of ${i}.` })
      }
    })()
    const [id] = createRuns(ws.db, {
      datasetId: ds.id,
      provider: 'anthropic',
      model: 'bench',
      baseUrl: 'http://127.0.0.1:9/',
      method: 'prompt-tf',
      mode: 'batch',
      cache: false,
    })
    let started = 0
    let faults0: number | null = null
    let cpuStarted = process.cpuUsage()
    let mainCpu0 = mainThreadCpuMs()
    const profile = windowProfile()
    const engine = batchEngine(ws, undefined, {
      batch: {
        poll: { firstMs: 0, maxMs: 0 },
        apiFactory: () =>
          memoryBatchApi(() => {
            profile.start()
            faults0 = mainThreadFaults()
            started = performance.now()
            cpuStarted = process.cpuUsage()
            mainCpu0 = mainThreadCpuMs()
          }),
      },
    })
    const s = await engine.start(id!)
    const ours = performance.now() - started
    const faults1 = mainThreadFaults()
    const oursCpu = cpuMs(process.cpuUsage(cpuStarted))
    const oursMainCpu = mainThreadCpuMs() - mainCpu0
    profile.stop()
    if (s.verdicts !== N) throw new Error(`ingest bench: ${s.verdicts} verdicts of ${N}`)

    // The same verdict rows, inserted bare: one prepared statement in one transaction.
    const rows = ws.db
      .prepare('SELECT target_id, call_id, status, verdict, detail FROM verdicts WHERE run_id = ?')
      .all(id!) as {
      target_id: number
      call_id: number
      status: string
      verdict: string
      detail: string
    }[]
    const [other] = createRuns(ws.db, {
      datasetId: ds.id,
      provider: 'lexical',
      model: 'x',
      method: 'lexical',
    })
    const insert = ws.db.prepare(
      'INSERT INTO verdicts (run_id, target_id, call_id, status, verdict, score, reason, citation, detail) VALUES (?, ?, ?, ?, ?, NULL, NULL, NULL, ?)',
    )
    const t0 = performance.now()
    const c0 = process.cpuUsage()
    ws.db.transaction(() => {
      for (const r of rows) insert.run(other!, r.target_id, r.call_id, r.status, r.verdict, r.detail)
    })()
    const bare = performance.now() - t0
    const bareCpu = cpuMs(process.cpuUsage(c0))

    // What the ingest also writes and the bar's bare insert does not: the run's call rows (tokens,
    // cost, which batch request holds the request record, which line of which chunk of replies
    // holds the reply) and those chunks, inserted bare the same way. A synchronous run stores one
    // call row per call, and a finished batch run must not differ, so bare verdicts / (bare
    // verdicts + bare calls) is as high as the ratio can go.
    const callColumns =
      'call_key, status, request_hash, request, response, cached, attempts, latency_ms, prompt_tokens, completion_tokens, cost, error, finished_at, cache_read_tokens, cache_write_tokens, via_batch, batch_request_id, reply_chunk, reply_line'
    const calls = ws.db
      .prepare(`SELECT ${callColumns} FROM run_calls WHERE run_id = ?`)
      .raw(true)
      .all(id!) as unknown[][]
    const insertCall = ws.db.prepare(
      `INSERT INTO run_calls (run_id, ${callColumns}) VALUES (?, ${callColumns
        .split(',')
        .map(() => '?')
        .join(', ')})`,
    )
    const chunks = ws.db
      .prepare(
        'SELECT batch_id, replies FROM run_batch_replies WHERE batch_id IN (SELECT id FROM run_batches WHERE run_id = ?)',
      )
      .raw(true)
      .all(id!) as unknown[][]
    const insertChunk = ws.db.prepare('INSERT INTO run_batch_replies (batch_id, replies) VALUES (?, ?)')
    const t1 = performance.now()
    ws.db.transaction(() => {
      for (const c of calls) insertCall.run(other!, ...c)
      for (const c of chunks) insertChunk.run(...c)
    })()
    const bareCalls = performance.now() - t1
    const [empty] = createRuns(ws.db, {
      datasetId: ds.id,
      provider: 'lexical',
      model: 'y',
      method: 'lexical',
    })
    const ratio = bare / ours
    const withCalls = (bare + bareCalls) / ours
    const s_ = (ms: number) => `${(ms / 1000).toFixed(2)} s`
    figure(
      `${N.toLocaleString('en')} batch results into verdicts: rate / bare insert of the same verdict rows`,
      ratio,
      '',
      0.8,
      'min',
      `ingest ${s_(ours)} (${Math.round(N / (ours / 1000)).toLocaleString('en')}/s), bare insert ${s_(bare)}`,
    )
    infoRate(
      'CPU time ratio of the same (steadier on a loaded machine)',
      bareCpu / oursCpu,
      '',
      `ingest ${s_(oursCpu)}, bare ${s_(bareCpu)}`,
    )
    // The main thread is where the workspace's writes must happen; work handed to a worker thread
    // leaves it, and on a quiet two-core machine the rate follows this ratio, not the one above
    // (which counts every thread, so a worker can only lower it).
    infoRate(
      'CPU time ratio of the main thread alone (what a worker thread could raise)',
      bareCpu / Math.max(oursMainCpu, 1),
      '',
      `ingest's main thread ${s_(oursMainCpu)} of ${s_(oursCpu)} in all threads`,
    )
    infoRate(
      'rate / bare insert of the same verdict and call rows',
      withCalls,
      '',
      `the ingest also writes ${calls.length.toLocaleString('en')} call rows, as a synchronous run does, and ${chunks.length} chunks of replies; bare ${s_(bareCalls)}`,
    )
    const faultMicros = pageFaultMicros()
    if (faults0 !== null && faults1 !== null && faultMicros !== null)
      info(
        'memory the ingest touched for the first time (main thread)',
        ((faults1 - faults0) * 4096) / 2 ** 20,
        'MB',
        `${(faults1 - faults0).toLocaleString('en')} page faults, about ${(((faults1 - faults0) * faultMicros) / 1000).toFixed(0)} ms at this machine's ${faultMicros.toFixed(1)} µs a fault`,
      )
    infoRate(
      'ceiling while those call rows cost what they cost inserted one by one (bare verdicts / bare calls and verdicts)',
      bare / (bare + bareCalls),
      '',
    )
    ingestCeiling(ws.db, id!, empty!, bareCpu)
    ws.close()
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
