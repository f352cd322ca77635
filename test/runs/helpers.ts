import { join } from 'node:path'
import { z } from 'zod'
import { Workspace } from '../../src/main/app/workspace'
import type { JudgeMethodImpl, VerdictOutcome } from '../../src/main/judges/types'
import { EnvKeyStore } from '../../src/main/providers/keys'
import { createRuns, type RunRequest } from '../../src/main/runs/create'
import { type EngineOptions, RunEngine } from '../../src/main/runs/engine'
import type { MethodRegistry } from '../../src/main/runs/registry'
import type { CallRecord } from '../../src/main/runs/repo'
import type { Db } from '../../src/main/store/connection'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA, type LabelSchema } from '../../src/shared/labelSchemas'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'

/** A workspace with `items` items, one `answer` candidate each, and `facts` facts per item. */
export function makeWorkspace(
  dir: string,
  items: number,
  facts: number,
  labelSchema: LabelSchema = FAAF_SCHEMA,
): { ws: Workspace; datasetId: number } {
  const ws = Workspace.open(freshWorkspaceFile(join(dir, 'ws.factlab')))
  const ds = createDataset(ws.db, { name: 'd', labelSchema })
  ws.db.transaction(() => {
    for (let i = 0; i < items; i++) {
      const itemId = ws.content.insertItem(
        ds.id,
        { extId: `q${i}`, question: `Question ${i}?`, reference: `Ref ${i}.` },
        i,
      )
      ws.content.insertCandidate(itemId, { variant: 'answer', text: `Answer ${i}.` })
      for (let f = 0; f < facts; f++)
        ws.content.insertUnit(itemId, { kind: 'fact', text: `Fact ${f} of item ${i}.` })
    }
  })()
  return { ws, datasetId: ds.id }
}

export const TOOL_NAME = 'record_checks'

/**
 * A small FaaF-shaped method for engine tests: all facts of a candidate in one forced tool call,
 * one enum argument per fact, strict zod validation, N/A with the reason on any format failure.
 */
export const miniFaaf: JudgeMethodImpl = {
  name: 'mini-faaf',
  unitKinds: ['fact'],
  schema: 'faaf',
  async judge(task, ctx) {
    const shape = Object.fromEntries(
      task.targets.map((t, i) => [`fact_${i}`, z.enum(['true', 'false']).describe(t.text)]),
    )
    const schema = z.strictObject(shape)
    const parameters = z.toJSONSchema(schema) as Record<string, unknown>
    delete parameters.$schema
    const res = await ctx.call(`mini:${task.candidate.id}`, {
      messages: [{ role: 'user', content: `Check candidate ${task.candidate.id}: ${task.candidate.text}` }],
      tool: { name: TOOL_NAME, description: 'Records one verdict per fact.', parameters },
    })
    const all = (o: Omit<VerdictOutcome, 'targetId'>) =>
      task.targets.map((t) => ({ ...o, targetId: t.targetId }))
    if (!res.ok) return all({ status: 'error', verdict: null, problem: res.error })
    if (res.reply.toolArguments === null) return all({ status: 'na', verdict: null, problem: 'no tool call' })
    let value: unknown
    try {
      value = JSON.parse(res.reply.toolArguments)
    } catch {
      return all({ status: 'na', verdict: null, problem: 'invalid JSON' })
    }
    const parsed = schema.safeParse(value)
    if (!parsed.success)
      return all({ status: 'na', verdict: null, problem: `schema: ${z.prettifyError(parsed.error)}` })
    return task.targets.map((t, i) => ({
      targetId: t.targetId,
      status: 'ok',
      verdict: String(parsed.data[`fact_${i}`]),
    }))
  },
}

export const MINI_REGISTRY: MethodRegistry = {
  judges: { 'mini-faaf': miniFaaf },
  generators: {},
  improver: null,
}

export const TEST_KEY = 'sk-test-SECRET-7f3a9c1e5b'

export function engineFor(ws: Workspace, extra: Partial<EngineOptions> = {}): RunEngine {
  return new RunEngine({
    db: ws.db,
    registry: MINI_REGISTRY,
    keys: new EnvKeyStore({ OPENAI_API_KEY: TEST_KEY, ANTHROPIC_API_KEY: TEST_KEY }),
    ...extra,
  })
}

export function runRequest(datasetId: number, baseUrl: string, over: Partial<RunRequest> = {}): RunRequest {
  return {
    datasetId,
    provider: 'openai',
    model: 'gpt-fake',
    baseUrl,
    method: 'mini-faaf',
    concurrency: 4,
    timeoutMs: 2_000,
    maxAttempts: 3,
    backoffMs: 10,
    ...over,
  }
}

export function oneRun(ws: Workspace, r: RunRequest): number {
  const [id] = createRuns(ws.db, r)
  return id!
}

export function verdictRows(ws: Workspace, runId: number) {
  return ws.db
    .prepare('SELECT target_id, status, verdict, detail FROM verdicts WHERE run_id = ? ORDER BY target_id')
    .all(runId) as { target_id: number; status: string; verdict: string | null; detail: string }[]
}

/** Adds one sentence, one triplet and one whole unit per candidate, so every method has targets. */
export function addEveryUnitKind(ws: Workspace): void {
  const rows = ws.db.prepare('SELECT id, item_id FROM candidates').all() as { id: number; item_id: number }[]
  ws.db.transaction(() => {
    for (const c of rows) {
      ws.content.insertUnit(c.item_id, { kind: 'sentence', text: 'The answer is short.', candidateId: c.id })
      ws.content.insertUnit(c.item_id, {
        kind: 'triplet',
        text: 'answer | is | short',
        triplet: ['answer', 'is', 'short'],
        candidateId: c.id,
      })
      ws.content.insertUnit(c.item_id, { kind: 'whole', text: 'Answer.', candidateId: c.id })
    }
  })()
}

/** A lease as another FactLab process on another machine would have written it. */
export function foreignLease(ws: Workspace, runId: number, heartbeatAgoMs: number): void {
  const at = new Date(Date.now() - heartbeatAgoMs).toISOString()
  ws.db
    .prepare(
      `INSERT INTO run_leases (run_id, owner, driver, pid, host, acquired_at, heartbeat_at)
       VALUES (?, 'far-away', 'cli', 4242, 'other-host', ?, ?)
       ON CONFLICT (run_id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`,
    )
    .run(runId, at, at)
}

/** A lexical run on a dataset, for tests that write its calls and verdicts by hand. */
export function lexicalRun(db: Db, datasetId: number): number {
  const [run] = createRuns(db, { datasetId, provider: 'lexical', model: 'x', method: 'lexical' })
  if (run === undefined) throw new Error('no run')
  return run
}

/** The i-th finished call of a run, as the engine records one; `o` sets what a test varies. */
export function finishedCall(runId: number, i: number, o: Partial<CallRecord> = {}): CallRecord {
  return {
    runId,
    key: `k${i}`,
    status: 'done',
    requestHash: `h${i}`,
    request: {},
    reply: null,
    cached: false,
    attempts: 1,
    latencyMs: 10,
    promptTokens: 1,
    completionTokens: 1,
    cost: 0,
    error: null,
    ...o,
  }
}
