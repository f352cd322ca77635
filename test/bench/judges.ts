/**
 * Judge-run bars: throughput against the fake server with 100 ms injected latency, as a ratio to
 * the ideal min(concurrency / latency, rate limit), and FaaF vs Prompt(T/F) calls and tokens per
 * fact on the same data.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { JudgeMethodImpl } from '../../src/main/judges/types'
import { createProvider } from '../../src/main/providers'
import { sendAtOnce } from '../../src/main/providers/client'
import { defaultCapabilities } from '../../src/main/providers/models'
import type { LlmReply } from '../../src/main/providers/types'
import { BUILTIN_REGISTRY } from '../../src/main/runs/builtin'
import { answerAll, startFakeLlm } from '../fake-llm/server'
import { engineFor, makeWorkspace, oneRun, runRequest } from '../runs/helpers'
import { figure, info, infoRate, note } from './record'
import { windowProfile } from './windowProfile'

const LATENCY_MS = 100

const SCHEMA = {
  type: 'object',
  properties: { fact_0: { type: 'string', enum: ['true', 'false'] } },
  required: ['fact_0'],
  additionalProperties: false,
}

/**
 * The lightest possible method, so the throughput figures measure the engine and the SDK rather
 * than a method's prompt building (the methods have their own tests).
 */
const oneCall: JudgeMethodImpl = {
  name: 'one-call',
  unitKinds: ['fact'],
  schema: 'faaf',
  async judge(task, ctx) {
    const res = await ctx.call(`one:${task.candidate.id}`, {
      messages: [{ role: 'user', content: `Check candidate ${task.candidate.id}.` }],
      tool: { name: 'record', description: 'Records the verdict.', parameters: SCHEMA },
    })
    const verdict =
      res.ok && res.reply.toolArguments
        ? (JSON.parse(res.reply.toolArguments) as { fact_0: string }).fact_0
        : null
    return task.targets.map((t) => ({ targetId: t.targetId, status: verdict ? 'ok' : 'na', verdict }))
  },
}

/** CPU seconds a process has used so far (Linux; null elsewhere). */
function processCpu(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return null
  }
}

/**
 * How many times this process's main thread has gone to sleep and been woken so far (Linux; null
 * elsewhere). On this machine a wake-up after 100 ms asleep costs about 0.2 ms of CPU before any
 * work is done, and the work after it runs on cold caches: at low concurrency, where each reply
 * comes in a wake-up of its own, that and not the engine is most of the CPU per call.
 */
function mainThreadWakeUps(): number | null {
  try {
    const m = /^voluntary_ctxt_switches:\s+(\d+)$/m.exec(readFileSync('/proc/thread-self/status', 'utf8'))
    return m ? Number(m[1]) : null
  } catch {
    return null
  }
}

/**
 * The fake server in a child process, as a real provider is outside the app's process: its
 * work then does not run on the event loop being measured (it still shares the machine's cores,
 * so its CPU per call is printed beside the engine's).
 */
interface ExternalFake {
  openaiUrl: string
  /** CPU seconds of the fake's whole process so far (all its threads), or null where unknown. */
  cpuSeconds(): number | null
  close(): Promise<void>
}

async function externalFake(latencyMs: number): Promise<ExternalFake> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fake-llm/serve.ts', String(latencyMs)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const line = await new Promise<string>((resolve, reject) => {
    let buf = ''
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString()
      const nl = buf.indexOf('\n')
      if (nl >= 0) resolve(buf.slice(0, nl))
    })
    child.on('exit', () => reject(new Error('the fake server exited before it started')))
  })
  const { openaiUrl } = JSON.parse(line) as { openaiUrl: string }
  return {
    openaiUrl,
    cpuSeconds: () => processCpu(child.pid),
    close: () =>
      new Promise<void>((resolve) => {
        child.on('exit', () => resolve())
        child.stdin.end()
      }),
  }
}

interface Limits {
  rpm?: number
  tpm?: number
}

async function throughput(
  fake: ExternalFake,
  concurrency: number,
  calls: number,
  limits: Limits = {},
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-'))
  try {
    const { ws, datasetId } = makeWorkspace(dir, calls, 1)
    const runId = oneRun(
      ws,
      runRequest(datasetId, fake.openaiUrl, {
        method: 'one-call',
        concurrency,
        cache: false,
        timeoutMs: 30_000,
        rpm: limits.rpm ?? null,
        tpm: limits.tpm ?? null,
      }),
    )
    // FACTLAB_BENCH_PROFILE=judges.cpuprofile profiles each run (judges-c32.cpuprofile).
    const profile = windowProfile(`c${concurrency}${limits.rpm ? '-rpm' : ''}${limits.tpm ? '-tpm' : ''}`)
    const fakeCpu0 = fake.cpuSeconds()
    const wakes0 = mainThreadWakeUps()
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    profile.start()
    const s = await engineFor(ws, {
      registry: { judges: { 'one-call': oneCall }, generators: {}, improver: null },
    }).start(runId)
    profile.stop()
    const seconds = (performance.now() - t0) / 1000
    const cpu = process.cpuUsage(cpu0)
    const wakes1 = mainThreadWakeUps()
    const fakeCpu1 = fake.cpuSeconds()
    const achieved = s.calls / seconds
    const tokensPerCall = (s.prompt_tokens + s.completion_tokens) / Math.max(1, s.calls)
    const ideal = Math.min(
      concurrency / (LATENCY_MS / 1000),
      limits.rpm === undefined ? Number.POSITIVE_INFINITY : limits.rpm / 60,
      limits.tpm === undefined ? Number.POSITIVE_INFINITY : limits.tpm / 60 / tokensPerCall,
    )
    const ratio = achieved / ideal
    const limit = [limits.rpm ? `${limits.rpm} rpm` : '', limits.tpm ? `${limits.tpm} tokens/min` : '']
      .filter(Boolean)
      .join(', ')
    figure(
      `throughput at concurrency ${concurrency}${limit ? `, ${limit}` : ''} / ideal`,
      ratio,
      '',
      0.97,
      'min',
      `${s.calls} calls in ${seconds.toFixed(2)} s = ${achieved.toFixed(1)}/s, ideal ${ideal.toFixed(1)}/s; fake server in its own process`,
    )
    // This process's CPU per call: the engine, the SDK and the HTTP client, without the fake
    // server (a child process). Steadier than wall time on a shared machine.
    info(
      `engine CPU per call at concurrency ${concurrency}${limit ? `, ${limit}` : ''}`,
      (cpu.user + cpu.system) / s.calls,
      'µs',
      wakes0 !== null && wakes1 !== null
        ? `all its threads; its main thread woke ${((wakes1 - wakes0) / s.calls).toFixed(2)} times a call`
        : undefined,
    )
    if (fakeCpu0 !== null && fakeCpu1 !== null)
      info(
        `fake server CPU per call at concurrency ${concurrency}${limit ? `, ${limit}` : ''}`,
        ((fakeCpu1 - fakeCpu0) * 1e6) / s.calls,
        'µs',
        'its own process, on the same cores (10 ms ticks)',
      )
    if (concurrency === 1)
      info(
        'engine time per call beyond the 100 ms latency, concurrency 1',
        (seconds / s.calls - LATENCY_MS / 1000) * 1e6,
        'µs',
      )
    ws.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * One fake server, 100 ms latency, for every figure of a bench: a provider is a long-running
 * process elsewhere, warm when a run starts. A fresh one per figure counted its own start (its
 * first calls compile its code) in the fake's CPU per call, a hundredth of a second a call at
 * concurrency 1, and had the first calls of each figure wait on it.
 */
async function withFake(body: (fake: ExternalFake) => Promise<void>): Promise<void> {
  const fake = await externalFake(LATENCY_MS)
  try {
    await body(fake)
  } finally {
    await fake.close()
  }
}

/**
 * For profiling the engine (not run by `npm run bench`): the warm-up, one throughput measurement
 * and the engine's overhead at the same concurrency, each profiled with FACTLAB_BENCH_PROFILE.
 */
export async function profileThroughput(concurrency: number, calls: number): Promise<void> {
  await withFake(async (fake) => {
    await warmUp(fake)
    await throughput(fake, concurrency, calls)
  })
  await engineOverhead(concurrency, calls)
}

/** The engine's overhead alone, `times` over, after one unmeasured run (for comparing commits). */
export async function profileOverhead(concurrency: number, calls: number, times: number): Promise<void> {
  await engineOverhead(128, 4096)
  for (let i = 0; i < times; i++) await engineOverhead(concurrency, calls)
}

/**
 * Concurrency and calls of each throughput figure. Concurrency 1 at 100 ms per call would take
 * over 3 minutes for 2,000 calls; 100 calls measure the same ratio. Each count is a whole number
 * of rounds of `concurrency` calls, so the ideal (calls × latency / concurrency) is reachable:
 * 4,000 calls at 128 would end on a round of 32, and even a perfect engine would get 0.977 of it.
 */
const ROUNDS: readonly (readonly [number, number])[] = [
  [1, 100],
  [8, 800],
  [32, 2048],
  [128, 4096],
]

export async function benchJudges(): Promise<void> {
  await withFake(async (fake) => {
    await warmUp(fake)
    for (const [concurrency, calls] of ROUNDS) {
      await throughput(fake, concurrency, calls)
      await machineCeiling(fake, concurrency, calls)
    }
    await throughput(fake, 32, 1000, { rpm: 6000 })
    // About 40 tokens a call here: 120,000 tokens a minute allow about 50 calls a second.
    await throughput(fake, 32, 1000, { tpm: 120_000 })
  })
  await engineOverhead(128, 4096)
  await callsPerFact()
}

const WARM_UP = { concurrency: 128, calls: 4096 }

/**
 * Calls a second through `one`, `concurrency` at a time, after a short unmeasured start, and this
 * process's CPU per call meanwhile in microseconds.
 */
async function loopRate(
  concurrency: number,
  calls: number,
  one: () => Promise<unknown>,
): Promise<{ rate: number; cpuPerCall: number }> {
  const loop = async (n: number) => {
    let left = n
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left-- > 0) await one()
      }),
    )
    const cpu = process.cpuUsage(cpu0)
    return { rate: n / ((performance.now() - t0) / 1000), cpuPerCall: (cpu.user + cpu.system) / n }
  }
  await loop(Math.min(calls, concurrency * 8))
  return loop(calls)
}

/**
 * What this machine allows, printed beside each throughput figure, in two steps towards the
 * engine: a loop of Node's own HTTP client sending the body the engine sends, then a loop of the
 * app's provider client (the official SDK through the lean fetch, its reply read as a run reads
 * it) making the same call, each to the same fake server and doing nothing else (no prompt, no
 * store). The bar's ideal counts only the latency; here
 * the fake server and the client share two cores and each process's wake-ups.
 */
async function machineCeiling(fake: ExternalFake, concurrency: number, calls: number): Promise<void> {
  const agent = new Agent({ keepAlive: true })
  const ideal = concurrency / (LATENCY_MS / 1000)
  try {
    const client = createProvider({
      provider: 'openai',
      model: 'gpt-fake',
      baseUrl: fake.openaiUrl,
      apiKey: 'bench',
      capabilities: defaultCapabilities('openai'),
      timeoutMs: 30_000,
    })
    const call = {
      messages: [{ role: 'user' as const, content: 'Check candidate 1.' }],
      tool: { name: 'record', description: 'Records the verdict.', parameters: SCHEMA },
    }
    const body = JSON.stringify(client.wireBody(call))
    const url = new URL(`${fake.openaiUrl}/chat/completions`)
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      authorization: 'Bearer bench',
    }
    const bare = () =>
      new Promise<void>((resolve, reject) => {
        request(url, { method: 'POST', agent, headers }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => {
            JSON.parse(Buffer.concat(chunks).toString())
            if (res.statusCode === 200) resolve()
            else reject(new Error(`the fake server answered ${res.statusCode}`))
          })
        })
          .on('error', reject)
          .end(body)
      })
    const bareLoop = await loopRate(concurrency, calls, bare)
    infoRate(
      `machine's ceiling at concurrency ${concurrency}: a bare HTTP loop / ideal`,
      bareLoop.rate / ideal,
      '',
      `${calls} calls of Node's HTTP client, doing nothing else, to the same fake server`,
    )
    const never = new AbortController().signal
    const clientLoop = await loopRate(concurrency, calls, () => client.complete(call, never, sendAtOnce))
    infoRate(
      `the provider client alone at concurrency ${concurrency} / ideal`,
      clientLoop.rate / ideal,
      '',
      `${calls} calls of the app's OpenAI client (the openai SDK through the lean fetch), doing nothing else`,
    )
    // Beside the engine's CPU per call: what the same calls cost with no engine, at the same pace.
    info(`CPU per call of the bare HTTP loop at concurrency ${concurrency}`, bareLoop.cpuPerCall, 'µs')
    info(
      `CPU per call of the provider client alone at concurrency ${concurrency}`,
      clientLoop.cpuPerCall,
      'µs',
    )
  } finally {
    agent.destroy()
  }
}

/**
 * One run that is not measured, first, the size of the largest measured one: the first calls of a
 * process compile the SDK, the HTTP client and the engine, and load undici, and the process takes
 * a few thousand calls at high concurrency to settle. That happens once per process, not once per
 * run: after a short warm-up (256 calls), the first run at concurrency 128 took about a third more
 * CPU per call than the ones after it, and left 32 a point or two below where it settles. The
 * fake server, shared by every figure, warms up with it.
 */
async function warmUp(fake: ExternalFake): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-'))
  try {
    const { ws, datasetId } = makeWorkspace(dir, WARM_UP.calls, 1)
    const runId = oneRun(
      ws,
      runRequest(datasetId, fake.openaiUrl, {
        method: 'one-call',
        concurrency: WARM_UP.concurrency,
        cache: false,
        timeoutMs: 30_000,
      }),
    )
    await engineFor(ws, {
      registry: { judges: { 'one-call': oneCall }, generators: {}, improver: null },
    }).start(runId)
    note(
      `warm-up: one run of ${WARM_UP.calls} calls at concurrency ${WARM_UP.concurrency} before the figures (not counted); one fake server for all of them`,
    )
    ws.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The engine's own CPU per call, with the SDK, HTTP and the server taken out: the provider client
 * answers each request on the next turn of the event loop with a reply the fake server gave, and
 * everything else (gate, hashing, the raw record, committing calls and verdicts) runs as in a run.
 */
async function engineOverhead(concurrency: number, calls: number): Promise<void> {
  const fake = await externalFake(0)
  const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-'))
  try {
    const { ws, datasetId } = makeWorkspace(dir, calls, 1)
    const request = runRequest(datasetId, fake.openaiUrl, {
      method: 'one-call',
      concurrency,
      cache: false,
      timeoutMs: 30_000,
    })
    const runId = oneRun(ws, request)
    let canned: LlmReply | null = null
    const engine = engineFor(ws, {
      registry: { judges: { 'one-call': oneCall }, generators: {}, improver: null },
      clientFactory: (opts) => {
        const real = createProvider(opts)
        return {
          wireBody: (req) => real.wireBody(req),
          async complete(req, signal, hooks) {
            await hooks.beforeSend()
            canned ??= await real.complete(req, signal, sendAtOnce)
            await new Promise((r) => setImmediate(r))
            return canned
          },
        }
      },
    })
    const profile = windowProfile('overhead')
    const cpu0 = process.cpuUsage()
    profile.start()
    const s = await engine.start(runId)
    const cpu = process.cpuUsage(cpu0)
    profile.stop()
    info(
      `engine overhead per call at concurrency ${concurrency}, SDK and network left out`,
      (cpu.user + cpu.system) / s.calls,
      'µs',
      `${s.calls} calls; CPU of the engine alone: gate, hashing, raw record, call and verdict writes`,
    )
    ws.close()
  } finally {
    await fake.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function callsPerFact(): Promise<void> {
  const fake = await startFakeLlm({
    script: (req, n) => (req.schema ? answerAll('true')(req, n) : { kind: 'text', text: 'True' }),
  })
  const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-'))
  try {
    const { ws, datasetId } = makeWorkspace(dir, 50, 2)
    // Candidates carry 2 to 20 facts, so "one call per candidate" is shown whatever the count.
    const items = ws.db.prepare('SELECT id FROM items ORDER BY position').pluck().all() as number[]
    ws.db.transaction(() => {
      items.forEach((itemId, i) => {
        for (let f = 0; f < (i * 7) % 19; f++)
          ws.content.insertUnit(itemId, { kind: 'fact', text: `Extra fact ${f}.` })
      })
    })()
    const facts = ws.db.prepare("SELECT COUNT(*) FROM units WHERE kind = 'fact'").pluck().get() as number
    const engine = engineFor(ws, { registry: BUILTIN_REGISTRY })
    for (const method of ['prompt-tf', 'faaf-tf', 'faaf-tfn-cite']) {
      const runId = oneRun(
        ws,
        runRequest(datasetId, fake.openaiUrl, { method, cache: false, concurrency: 16 }),
      )
      const s = await engine.start(runId)
      info(
        `${method}: calls per fact`,
        s.calls / facts,
        '',
        `${s.calls} calls for ${facts} facts (50 candidates, 2–20 facts each); ${((s.prompt_tokens + s.completion_tokens) / facts).toFixed(1)} tokens/fact; ${(s.calls / 50).toFixed(2)} calls/candidate`,
      )
    }
    ws.close()
  } finally {
    await fake.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
