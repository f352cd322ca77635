import { type ChildProcess, spawn } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { REFCHECKER_SCHEMA } from '../../src/shared/labelSchemas'
import type { BatchEvent } from '../fake-llm/batches'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { addEveryUnitKind, makeWorkspace, TEST_KEY } from '../runs/helpers'
import { setDatasetSchema } from './helpers'

/**
 * A batch run driven by the CLI in a child process is killed with SIGKILL at the moment the
 * provider sees a given request, then resumed: no request reaches a second batch, no result is
 * lost, and the verdicts are complete.
 */
const dir = tmpDirs()
let fake: FakeServer
const KEYS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'] as const
beforeAll(async () => {
  const tools = answerAll('true')
  // Tool requests (FaaF) get "true" everywhere; RefChecker's plain-text checks get "Entailment".
  fake = await startFakeLlm({
    script: (req, i) => (req.schema ? tools(req, i) : { kind: 'text', text: 'Entailment.' }),
  })
  for (const k of KEYS) process.env[k] = TEST_KEY
})
afterAll(async () => {
  for (const k of KEYS) delete process.env[k]
  await fake.close()
})
beforeEach(() => {
  fake.batches.plan = {}
  fake.batches.onEvent = null
})

type Provider = 'openai' | 'anthropic'
const ITEMS = 6
const FACTS = 2

type Method = 'faaf-tf' | 'refchecker'

function runArgs(file: string, p: Provider, method: Method): string[] {
  return [
    'judge',
    'run',
    '--workspace',
    file,
    '--dataset',
    'd',
    '--provider',
    p,
    '--model',
    p === 'openai' ? 'gpt-fake' : 'claude-fake',
    '--base-url',
    p === 'openai' ? fake.openaiUrl : fake.anthropicUrl,
    '--method',
    method,
    '--mode',
    'batch',
    '--poll-ms',
    '0',
    '--json',
  ]
}

/**
 * `factlab` as a person starts it: the build while it is current (npm test builds first), else
 * the source through tsx, so a source change is never tested as old code. The build starts in
 * half the time tsx takes to compile the CLI, and this file starts eighteen of them.
 */
function child(args: string[]): { proc: ChildProcess; exited: Promise<number | null> } {
  const proc = spawn(process.execPath, ['bin/factlab.js', ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, OPENAI_API_KEY: TEST_KEY, ANTHROPIC_API_KEY: TEST_KEY },
  })
  return { proc, exited: new Promise((resolve) => proc.on('exit', (code) => resolve(code))) }
}

function doneBatchCalls(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    return (
      db.prepare("SELECT COUNT(*) AS n FROM run_calls WHERE via_batch = 1 AND status = 'done'").get() as {
        n: number
      }
    ).n
  } catch {
    return 0
  } finally {
    db.close()
  }
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** Request bodies that reached more than one created batch since `from`. */
function submittedTwice(from: number): number {
  const seen = new Map<string, number>()
  for (const s of fake.batches.submissions.slice(from))
    for (const b of s.bodies) seen.set(JSON.stringify(b), (seen.get(JSON.stringify(b)) ?? 0) + 1)
  return [...seen.values()].filter((n) => n > 1).length
}

function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const p = join(root, name)
    return statSync(p).isDirectory() ? filesUnder(p) : [p]
  })
}

interface KillPoint {
  name: string
  providers: Provider[]
  plan?: typeof fake.batches.plan
  /** Decides, for each event the provider sees, whether the child dies now (and what the fake does). */
  at: (e: BatchEvent) => boolean
  drop?: boolean
  /** Waits for the child to have done something before it is killed. */
  before?: (file: string) => Promise<void>
}

const POINTS: KillPoint[] = [
  { name: 'while uploading the batch file', providers: ['openai'], at: (e) => e.kind === 'upload' },
  {
    name: 'during a create the provider never got',
    providers: ['openai', 'anthropic'],
    at: (e) => e.kind === 'create-start',
    drop: true,
  },
  {
    name: 'after the provider created the batch, before its id was stored',
    providers: ['openai', 'anthropic'],
    at: (e) => e.kind === 'create',
  },
  {
    name: 'while the batch is in progress',
    providers: ['openai', 'anthropic'],
    at: (e) => e.kind === 'retrieve',
  },
  {
    name: 'with the results half read',
    providers: ['openai', 'anthropic'],
    plan: { pauseMidResults: true },
    at: (e) => e.kind === 'results-half',
    before: (file) => until(() => doneBatchCalls(file) > 0, 'the child to ingest part of the results'),
  },
]

const CASES = POINTS.flatMap((p) =>
  p.providers.flatMap((provider) =>
    (['faaf-tf', 'refchecker'] as const).map((m) => [p.name, provider, m, p] as const),
  ),
)

/**
 * A case is two CLI processes (the killed run and the resume), each starting Node and opening the
 * workspace: alone it takes 10–30 s, and with the suite run twice at once on 2 cores it ran past the
 * default minute. The limit only has to be longer than a case can take when nothing is wrong.
 */
const KILL_CASE_MS = 300_000

describe.each(CASES)('SIGKILL %s (%s, %s), then judge resume', (_name, provider, method, point) => {
  it(
    'submits no request twice, loses no result, and finishes every verdict',
    async () => {
      const root = dir()
      const { ws } = makeWorkspace(root, ITEMS, FACTS)
      addEveryUnitKind(ws)
      if (method === 'refchecker') setDatasetSchema(ws, REFCHECKER_SCHEMA)
      const file = ws.file
      ws.close()
      const mark = fake.batches.submissions.length
      fake.batches.plan = point.plan ?? {}
      const { proc, exited } = child(runArgs(file, provider, method))
      let killed: Promise<number> | null = null
      fake.batches.onEvent = async (e) => {
        if (killed || !point.at(e)) return
        killed = (async () => {
          await point.before?.(file)
          proc.kill('SIGKILL')
          await exited
          return doneBatchCalls(file)
        })()
        await killed
        return point.drop ? 'drop' : undefined
      }
      await exited
      expect(killed).not.toBeNull()
      const ingestedAtKill = await killed
      if (point.before) {
        // Killed half-way through reading: some results were in, not all.
        expect(ingestedAtKill).toBeGreaterThan(0)
        expect(ingestedAtKill).toBeLessThan(ITEMS)
      }
      fake.batches.onEvent = null
      fake.batches.plan = {}

      const resumed = await cli(['judge', 'resume', '1', '--workspace', file, '--poll-ms', '0', '--json'])
      expect(resumed.err).not.toMatch(/factlab:/)
      expect(JSON.parse(resumed.out)).toMatchObject({
        status: 'done',
        // FaaF: every fact of each candidate; RefChecker: the one triplet per candidate.
        verdicts: method === 'faaf-tf' ? ITEMS * FACTS : ITEMS,
        na: 0,
        errors: 0,
        calls: ITEMS,
      })
      expect(submittedTwice(mark)).toBe(0)
      // Every call answered exactly once, through a batch.
      const db = new Database(file, { readonly: true })
      expect(
        db.prepare('SELECT COUNT(*) AS n, SUM(via_batch) AS b, SUM(attempts) AS a FROM run_calls').get(),
      ).toEqual({
        n: ITEMS,
        b: ITEMS,
        a: ITEMS,
      })
      db.close()
      // The key went to the provider and nowhere else: not into the workspace, its WAL or any file.
      const key = Buffer.from(TEST_KEY)
      for (const f of filesUnder(root)) expect(readFileSync(f).includes(key), f).toBe(false)
    },
    KILL_CASE_MS,
  )
})
