import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchStatus } from '../../src/main/batches/status'
import { createRuns } from '../../src/main/runs/create'
import { runInfos } from '../../src/main/runs/queries'
import { runSummary } from '../../src/main/runs/repo'
import { batchEngine } from '../batches/helpers'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { makeWorkspace } from './helpers'

const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: answerAll('true') })
})
afterAll(() => fake.close())

describe('a run says how many calls it plans', () => {
  it.each([
    // 3 items × 2 facts: one FaaF call per candidate, one prompt-tf call per fact.
    { method: 'faaf-tf', mode: 'sync', planned: 3 },
    { method: 'faaf-tf', mode: 'batch', planned: 3 },
    { method: 'prompt-tf', mode: 'sync', planned: 6 },
    { method: 'prompt-tf', mode: 'batch', planned: 6 },
  ] as const)(
    '$method ($mode): "n of N calls" in the run list, the summary and judge status',
    async ({ method, mode, planned }) => {
      const { ws, datasetId } = makeWorkspace(dir(), 3, 2)
      const [run] = createRuns(ws.db, {
        datasetId,
        provider: 'openai',
        model: 'gpt-fake',
        baseUrl: fake.openaiUrl,
        method,
        mode,
        cache: false,
        backoffMs: 1,
      })
      // Not planned before it starts: nothing to claim yet.
      expect(runSummary(ws.db, run!).total_calls).toBeNull()
      const s = await batchEngine(ws).start(run!)
      expect(s.status).toBe('done')
      expect(s.total_calls).toBe(planned)
      expect(s.calls).toBe(planned)
      const info = runInfos(ws.db, datasetId, () => false).find((r) => r.id === run)!
      expect(info.totalCalls).toBe(planned)
      // Progress counts candidates; the calls are counted apart.
      expect(info.total).toBe(3)
      expect(await batchStatus(ws.db, run!)).toMatchObject({ callsMade: planned, totalCalls: planned })
      ws.close()
    },
  )
})
