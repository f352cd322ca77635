import { createServer } from 'node:net'
import { expect, it } from 'vitest'
import type { DatasetMetrics } from '../../src/shared/contract/metrics'
import type { BatchStatusInfo, RunInfo } from '../../src/shared/contract/runs'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { tmpDirs } from '../helpers/tmp'
import { judgeArgs, savedWorkspace } from './cliHelpers'

const dir = tmpDirs()
// Only for the keys: every run here goes to a server that is down.
fakeLlmForFile(['ANTHROPIC_API_KEY'])
const openApp = testApps()

/** The address of a server that is down: a port just freed, where nothing listens. */
async function downServer(): Promise<string> {
  const s = createServer()
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok))
  const { port } = s.address() as { port: number }
  await new Promise<void>((ok) => s.close(() => ok()))
  return `http://127.0.0.1:${port}`
}

const workspace = (): string => savedWorkspace(dir(), 3, 2).file

/** faaf-tf on Anthropic's fake model at `url`, one attempt a call. */
const judge = (file: string, url: string, ...more: string[]) =>
  cli(
    judgeArgs(
      file,
      { provider: 'anthropic', model: 'claude-fake', baseUrl: url },
      'faaf-tf',
      '--max-attempts',
      '1',
      '--json',
      ...more,
    ),
  )

it('a run against a server that is down says to check the server before resuming, and every screen counts its calls alike', async () => {
  const file = workspace()
  const url = await downServer()
  const r = await judge(file, url)
  expect(r.code).toBe(1)
  expect(r.err).toContain(
    `Nothing answered at ${url}: check that the server is running and that the address is right. Resuming asks the same address again, so it helps only once the server answers; for another address, start a new run; to resume: judge resume 1`,
  )
  // Three candidates, one FaaF call each: none answered, three failed.
  const summary = JSON.parse(r.out) as { status: string; calls: number; callErrors: number; errors: number }
  expect(summary).toMatchObject({ status: 'failed', calls: 0, callErrors: 3, errors: 6 })

  const app = openApp(file)
  const [run] = await app.value<RunInfo[]>('judges.runs', {})
  expect(run).toMatchObject({ status: 'failed', calls: 0, callErrors: 3 })
  expect(run?.error).toContain(`Nothing answered at ${url}`)
  const compare = await app.value<DatasetMetrics>('metrics.compare', { datasetId: 1, replicates: 0 })
  expect(compare.judges[0]).toMatchObject({ runId: 1, calls: 0, errors: 6 })
  // Resumed while the server is still down: the same three calls fail again, counted once each.
  const shown = await cli(['judge', 'resume', '1', '--workspace', file])
  expect(shown.code).toBe(1)
  expect(shown.out).toContain('3 of 3 calls (3 failed)')
})

it('a batch that never reached the provider says so, with its requests failed, not "not yet accepted · ingested · 0/3 done"', async () => {
  const file = workspace()
  const url = await downServer()
  const r = await judge(file, url, '--mode', 'batch', '--poll-ms', '0')
  expect(r.code).toBe(1)
  expect(JSON.parse(r.out)).toMatchObject({ status: 'failed', calls: 0, callErrors: 3 })

  const status = await cli(['judge', 'status', '1', '--workspace', file, '--json'])
  const s = JSON.parse(status.out) as BatchStatusInfo
  expect(s.batches).toHaveLength(1)
  expect(s.batches[0]).toMatchObject({
    providerBatchId: null,
    requests: 3,
    succeeded: 0,
    errored: 3,
    processing: 0,
  })
  const human = await cli(['judge', 'status', '1', '--workspace', file])
  expect(human.out).toMatch(
    /^batch 1 \(no provider id\): never created at the provider, so none of it was sent: creating the batch: .+ — 3 requests failed$/m,
  )
  expect(human.out).not.toMatch(/ingested|not yet accepted/)
})
