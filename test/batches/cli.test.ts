import { afterEach, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { tmpDirs } from '../helpers/tmp'
import { fakeOpenAi, judgeArgs, savedWorkspace } from '../runs/cliHelpers'

const dir = tmpDirs()
const fake = fakeLlmForFile(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'])
afterEach(() => {
  fake().batches.plan = {}
})

const workspace = (items: number, facts: number): string => savedWorkspace(dir(), items, facts).file

const run = (file: string, ...more: string[]) =>
  judgeArgs(file, fakeOpenAi(fake()), 'faaf-tf', '--poll-ms', '0', ...more)

it("judge status lists a run's batches with provider ids and counts; an expired batch is finished with resume --mode sync", async () => {
  const file = workspace(4, 2)
  fake().batches.plan = { end: 'expired' }
  const first = await cli(run(file, '--mode', 'batch', '--no-cache'))
  expect(first.code).toBe(1)
  expect(first.out).toMatch(
    /ended without a result; judge resume 1 sends them in a new batch \(or --mode sync calls them one by one\)/,
  )

  const status = await cli(['judge', 'status', '1', '--workspace', file, '--json'])
  const s = JSON.parse(status.out) as {
    mode: string
    status: string
    batches: {
      providerBatchId: string
      state: string
      providerStatus: string
      requests: number
      succeeded: number
    }[]
  }
  expect(s).toMatchObject({ mode: 'batch', status: 'failed' })
  expect(s.batches).toHaveLength(1)
  expect(s.batches[0]).toMatchObject({
    state: 'ingested',
    providerStatus: 'expired',
    requests: 4,
    succeeded: 2,
  })
  const human = await cli(['judge', 'status', '1', '--workspace', file])
  // The provider's own counts: OpenAI counts the two expired requests among the failed ones.
  expect(human.out).toContain(
    `batch 1 (${s.batches[0]!.providerBatchId}): answers read (provider: expired) — 2/4 answered, 2 failed`,
  )

  const calls = fake().calls()
  const resumed = await cli(['judge', 'resume', '1', '--workspace', file, '--mode', 'sync', '--json'])
  expect(JSON.parse(resumed.out)).toMatchObject({ status: 'done', verdicts: 8, mode: 'sync' })
  // The two that expired were asked call by call; the two that finished in the batch were not.
  expect(fake().calls() - calls).toBe(2)
})

it('refuses batch mode where there is no batch API, and a mode it does not know', async () => {
  const file = workspace(1, 1)
  const compatible = { provider: 'openai-compatible', model: 'm', baseUrl: fake().openaiUrl }
  const local = await cli(judgeArgs(file, compatible, 'faaf-tf', '--mode', 'batch'))
  expect(local.code).toBe(1)
  expect(local.err).toContain('Batch mode is for openai and anthropic; openai-compatible runs call by call')
  const odd = await cli(run(file, '--mode', 'later'))
  expect(odd.code).toBe(2)
  expect(odd.err).toContain('--mode must be sync or batch, got "later"')
})
