import { describe, expect, it } from 'vitest'
import { DCE_TOOL_NAME } from '../../src/main/judges/dcr'
import { RAI_TOOL_NAME } from '../../src/main/judges/rai'
import { LEASE_STALE_MS } from '../../src/main/runs/leaseRules'
import { answerAll } from '../fake-llm/server'
import { cli } from '../helpers/cli'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { tmpDirs } from '../helpers/tmp'
import {
  fakeAnthropic,
  fakeOpenAi,
  judgeArgs,
  modelFlags,
  onDataset,
  previewArgs,
  savedWorkspace,
} from './cliHelpers'
import { foreignLease, makeWorkspace, oneRun, runRequest, TEST_KEY } from './helpers'

const dir = tmpDirs()
const fake = fakeLlmForFile(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'])

const workspaceFile = (items: number, facts: number): string => savedWorkspace(dir(), items, facts).file

/** An OpenAI model at OpenAI's own address: never reached by these tests. */
const unreached = (model: string) => ({ provider: 'openai', model })

describe('judge CLI', () => {
  it('judge run --json reports calls and verdicts; an identical re-run is all cache', async () => {
    const db = workspaceFile(3, 4)
    const args = judgeArgs(db, fakeAnthropic(fake()), 'faaf-tfn', '--json')
    const first = await cli(args)
    expect(first.code).toBe(0)
    expect(JSON.parse(first.out)).toMatchObject({
      status: 'done',
      calls: 3,
      cached: 0,
      verdicts: 12,
      na: 0,
      errors: 0,
    })
    const second = await cli(args)
    expect(JSON.parse(second.out)).toMatchObject({ calls: 0, cached: 3, verdicts: 12 })
  })

  it('--repeat K makes K runs that each ask the model', async () => {
    const db = workspaceFile(2, 2)
    const r = await cli(judgeArgs(db, fakeOpenAi(fake()), 'faaf-tf', '--repeat', '2', '--json'))
    const runs = JSON.parse(r.out) as { calls: number }[]
    expect(runs.map((s) => s.calls)).toEqual([2, 2])
  })

  it('refuses an unknown method with a usage error and changes nothing', async () => {
    const db = workspaceFile(1, 1)
    const r = await cli(judgeArgs(db, unreached('m'), 'nope'))
    expect(r.code).toBe(2)
    expect(r.err).toMatch(/--method must be one of/)
  })

  it('refuses to start without a key, naming the variable, and creates no run', async () => {
    const db = workspaceFile(1, 1)
    delete process.env.OPENAI_API_KEY
    try {
      const r = await cli(judgeArgs(db, unreached('m'), 'faaf-tf'))
      expect(r.code).toBe(1)
      expect(r.err).toMatch(/OPENAI_API_KEY/)
    } finally {
      process.env.OPENAI_API_KEY = TEST_KEY
    }
    const check = await cli(['judge', 'resume', '1', '--workspace', db])
    expect(check.err).toMatch(/No run with id 1/)
  })

  it('judge resume is refused while another process drives the run, and takes over one gone silent, saying so', async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 2, 2)
    const runId = oneRun(ws, runRequest(datasetId, fake().openaiUrl, { method: 'faaf-tf' }))
    foreignLease(ws, runId, 1_000)
    const before = fake().calls()
    const refused = await cli(['judge', 'resume', String(runId), '--workspace', ws.file])
    expect(refused.code).toBe(1)
    expect(refused.err).toMatch(
      new RegExp(
        `^factlab: run ${runId} is being driven by the CLI, pid 4242 on host other-host, since .+; stop it there or wait\n$`,
      ),
    )
    expect(fake().calls()).toBe(before)

    foreignLease(ws, runId, LEASE_STALE_MS + 1_000)
    const resumed = await cli(['judge', 'resume', String(runId), '--workspace', ws.file, '--json'])
    expect(resumed.code).toBe(0)
    expect(JSON.parse(resumed.out)).toMatchObject({ status: 'done', calls: 2, verdicts: 4 })
    expect(resumed.err).toMatch(
      /^note: took over run \d+ from the CLI, pid 4242 on host other-host.*not been heard from/m,
    )
    // Done, the run is no longer taken over: its status says nothing of it.
    const done = await cli(['judge', 'status', String(runId), '--workspace', ws.file])
    expect(done.out).toContain(`run ${runId}: done`)
    expect(done.out).not.toContain('took over')
    // Under way again, it does, as the Judges view does.
    ws.db.prepare("UPDATE runs SET status = 'paused' WHERE id = ?").run(runId)
    const paused = await cli(['judge', 'status', String(runId), '--workspace', ws.file])
    expect(paused.out).toMatch(/^note: took over run \d+ from the CLI, pid 4242 on host other-host/m)
    ws.close()
  })

  it('refuses a method the dataset has no units for, naming what it needs and what there is, and stores no run', async () => {
    const db = workspaceFile(2, 2)
    const before = fake().calls()
    const r = await cli(judgeArgs(db, fakeOpenAi(fake()), 'dcr'))
    expect(r.code).toBe(1)
    expect(r.err).toContain(
      'dcr judges sentences, and this dataset has facts only; no run was created. To run dcr, split the answers into sentences in the Units view or with `factlab units generate --method sentences` (no model needed)',
    )
    expect(fake().calls()).toBe(before)
    expect((await cli(['judge', 'status', '1', '--workspace', db])).err).toMatch(/No run with id 1/)
  })

  it('judge preview prints the exact wire body without sending it', async () => {
    const db = workspaceFile(2, 3)
    const before = fake().calls()
    const r = await cli(previewArgs(db, unreached('gpt-fake'), 'faaf-tf', '--json'))
    const p = JSON.parse(r.out) as { candidates: number; calls: { wire: { tool_choice: unknown } }[] }
    expect(p.candidates).toBe(2)
    expect(p.calls).toHaveLength(1)
    expect(p.calls[0]?.wire.tool_choice).toMatchObject({ type: 'function' })
    expect(fake().calls()).toBe(before)
    expect(r.out).not.toContain(TEST_KEY)
  })

  it('units generate --method facts writes LLM facts through the content writer', async () => {
    const db = workspaceFile(2, 0)
    const model = modelFlags(fakeOpenAi(fake()))
    const r = await cli(['units', 'generate', ...onDataset(db), '--method', 'facts', ...model, '--json'])
    expect(r.code).toBe(0)
    const out = JSON.parse(r.out) as { units: number; calls: number }
    expect(out.calls).toBe(2)
    expect(out.units).toBeGreaterThanOrEqual(2)
  })

  it('judge improve rewrites what a DCR run found inconsistent, with the same model, and refuses other runs', async () => {
    const FIXED = 'The fixed answer.'
    fake().setScript((req) => {
      if (req.toolName === RAI_TOOL_NAME) return { kind: 'tool', arguments: { rewritten: FIXED } }
      if (req.toolName === DCE_TOOL_NAME) {
        const decision = req.userText.includes(FIXED) ? 'consistent' : 'inconsistent'
        return { kind: 'tool', arguments: { sentences: [{ number: 1, reason: 'compared', decision }] } }
      }
      return answerAll('true')(req, 0)
    })
    try {
      const db = workspaceFile(2, 0)
      expect(
        (await cli(['units', 'generate', ...onDataset(db), '--method', 'sentences', '--json'])).code,
      ).toBe(0)
      const dcr = await cli(judgeArgs(db, fakeOpenAi(fake()), 'dcr', '--json'))
      expect(dcr.code).toBe(0)
      const dcrRun = (JSON.parse(dcr.out) as { run: number }).run
      const before = fake().requests.length
      const improved = await cli(['judge', 'improve', '--workspace', db, '--run', String(dcrRun), '--json'])
      expect(improved.code).toBe(0)
      expect(JSON.parse(improved.out)).toMatchObject({
        status: 'done',
        rounds: [
          { round: 1, inconsistent: 2, corrected: 2, failed: 0, rate: 1, originals: 2, cumulativeRate: 1 },
        ],
      })
      const asked = fake().requests.slice(before)
      expect(asked.length).toBeGreaterThan(0)
      expect(asked.every((r) => r.body.model === 'gpt-fake')).toBe(true)

      const other = await cli(judgeArgs(db, { provider: 'lexical', model: 'rougeL' }, 'lexical', '--json'))
      const otherRun = (JSON.parse(other.out) as { run: number }).run
      const refused = await cli(['judge', 'improve', '--workspace', db, '--run', String(otherRun)])
      expect(refused.code).toBe(1)
      expect(refused.err).toContain(`Run ${otherRun} is a lexical run, not dcr`)
    } finally {
      fake().setScript(answerAll('true'))
    }
  })
})
