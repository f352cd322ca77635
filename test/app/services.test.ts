import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { AppContext } from '../../src/main/app/context'
import { Workspace } from '../../src/main/app/workspace'
import { getRun } from '../../src/main/runs/repo'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { makeWorkspace, oneRun, runRequest, TEST_KEY } from '../runs/helpers'

const dir = tmpDirs()
let fake: FakeServer
const answer = answerAll('true')

beforeAll(async () => {
  // Replies never come in time: a run stays in flight until something stops it.
  fake = await startFakeLlm({
    script: (req, i) => ({ kind: 'slow', delayMs: 600_000, reply: answer(req, i) }),
  })
  process.env.OPENAI_API_KEY = TEST_KEY
})
afterAll(async () => {
  delete process.env.OPENAI_API_KEY
  await fake.close()
})

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10))
}

it('File › Open pauses the runs of the workspace left behind and frees their leases; the new one gets its own engine', async () => {
  const { ws, datasetId } = makeWorkspace(dir(), 2, 1)
  const runId = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { method: 'faaf-tf' }))
  const first = ws.file
  ws.close()
  const other = join(dir(), 'other.factlab')

  const ctx = new AppContext(first, { driver: 'app' })
  try {
    const firstEngine = ctx.runs
    const running = firstEngine.start(runId)
    await until(() => fake.calls() > 0)
    expect(ctx.workspace.db.prepare('SELECT driver FROM run_leases WHERE run_id = ?').get(runId)).toEqual({
      driver: 'app',
    })
    const changed: unknown[] = []
    ctx.events.subscribe((name, payload) => {
      if (name === 'workspace.changed') changed.push(payload)
    })

    await ctx.switchTo(other)

    expect(changed).toEqual([{ file: other }])
    expect(ctx.workspace.file).toBe(other)
    expect(ctx.runs).not.toBe(firstEngine)
    expect(firstEngine.isActive(runId)).toBe(false)
    await expect(running).resolves.toMatchObject({ status: 'paused' })
  } finally {
    ctx.close()
  }

  // The run can be resumed later by anyone: paused, and no lease left behind.
  const reopened = Workspace.open(first)
  try {
    expect(getRun(reopened.db, runId).status).toBe('paused')
    expect(reopened.db.prepare('SELECT COUNT(*) AS n FROM run_leases WHERE run_id = ?').get(runId)).toEqual({
      n: 0,
    })
  } finally {
    reopened.close()
  }
})
