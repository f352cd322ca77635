import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import type { BatchStatusInfo, RunInfo } from '../../src/shared/contract/runs'
import { callCountWords } from '../../src/shared/runCalls'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { tmpDirs } from '../helpers/tmp'
import { makeWorkspace } from './helpers'

const dir = tmpDirs()
const fake = fakeLlmForFile(['ANTHROPIC_API_KEY'])
const openApp = testApps()
const model = ['--provider', 'anthropic', '--model', 'claude-fake', '--base-url']

it('judge status of a paused call-by-call run gives the Judges view’s counts and tokens, the export’s tokens, and a cost still to come', async () => {
  const { ws } = makeWorkspace(dir(), 3, 3)
  const file = ws.file
  ws.close()
  const w = ['--workspace', file]
  expect(
    (await cli(['models', 'price', ...w, ...model, fake().anthropicUrl, '--input', '3', '--output', '15']))
      .code,
  ).toBe(0)
  const ran = await cli([
    'judge',
    'run',
    ...w,
    '--dataset',
    'd',
    ...model,
    fake().anthropicUrl,
    '--method',
    'prompt-tf',
    '--no-cache',
    '--json',
  ])
  expect(ran.code, ran.err).toBe(0)
  const runId = (JSON.parse(ran.out) as { run: number }).run
  // Paused half way: 9 calls made of 18 planned.
  const db = Workspace.open(file)
  db.db.prepare("UPDATE runs SET status = 'paused', planned_calls = 18 WHERE id = ?").run(runId)
  db.close()

  const st = JSON.parse(
    (await cli(['judge', 'status', String(runId), ...w, '--json'])).out,
  ) as BatchStatusInfo
  const app = openApp(file)
  const view = (await app.value<RunInfo[]>('judges.runs', {})).find((r) => r.id === runId)!
  expect([st.promptTokens, st.completionTokens]).toEqual([view.promptTokens, view.completionTokens])
  expect(st.promptTokens).toBeGreaterThan(0)
  expect(st.cost).toBeCloseTo(view.cost, 10)
  // Nine calls still to make, each at the average of the nine made: twice the cost so far.
  expect(st.expectedCost).toBeCloseTo(2 * st.cost, 10)

  const out = join(dir(), 'v.jsonl')
  expect((await cli(['export-verdicts', String(runId), '--out', out, ...w])).code).toBe(0)
  const rows = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { prompt_tokens: number | null; completion_tokens: number | null })
  expect(rows.reduce((n, r) => n + (r.prompt_tokens ?? 0), 0)).toBe(st.promptTokens)

  const human = (await cli(['judge', 'status', String(runId), ...w])).out
  expect(human).not.toContain('request(s) waiting')
  expect(human).toContain(`run ${runId}: paused (call by call)`)
  expect(human).toContain(`9 of 18 calls, ${st.promptTokens}+${st.completionTokens} tokens`)
  // The figure says what it rests on.
  expect(human).toContain(
    `cost so far ${st.cost.toFixed(4)}, expected ${(2 * st.cost).toFixed(4)} (9 calls left of 18 planned calls, each at the average tokens of the 9 calls answered so far, at the run's prices)`,
  )
  expect(human).toContain('templates: every call uses prompt-tf v1, as when the run was created')
})

it('an Improve run, which plans no calls up front, counts every call it made, as the Judges view does', () => {
  const improve = { status: 'done', calls: 6, cached: 6, callErrors: 0, totalCalls: 0 }
  expect(callCountWords(improve)).toBe('12 calls')
  expect(callCountWords({ ...improve, totalCalls: null })).toBe('12 calls')
  expect(callCountWords({ status: 'queued', calls: 0, cached: 0, callErrors: 0, totalCalls: null })).toBe(
    'no calls yet (the run has not started)',
  )
  expect(callCountWords({ status: 'paused', calls: 3, cached: 1, callErrors: 1, totalCalls: 9 })).toBe(
    '5 of 9 calls',
  )
})
