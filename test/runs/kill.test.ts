import { spawn } from 'node:child_process'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { engineFor, makeWorkspace, oneRun, runRequest } from './helpers'

const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: answerAll('true'), latencyMs: 60 })
})
afterAll(() => fake.close())

const doneKeys = (db: ReturnType<typeof makeWorkspace>['ws']['db'], runId: number) =>
  new Set(
    (
      db.prepare("SELECT call_key FROM run_calls WHERE run_id = ? AND status = 'done'").all(runId) as {
        call_key: string
      }[]
    ).map((r) => r.call_key),
  )

it('resumes a run killed mid-way (SIGKILL) without repeating any finished call', async () => {
  const { ws, datasetId } = makeWorkspace(dir(), 40, 3)
  const runId = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { concurrency: 2, cache: false }))
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/runs/killChild.ts', ws.file, String(runId)],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const deadline = Date.now() + 20_000
  while (doneKeys(ws.db, runId).size < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  child.kill('SIGKILL')
  await exited

  const finishedBeforeKill = doneKeys(ws.db, runId)
  expect(finishedBeforeKill.size).toBeGreaterThanOrEqual(8)
  expect(finishedBeforeKill.size).toBeLessThan(40)
  const requestsBefore = fake.requests.length

  const summary = await engineFor(ws).start(runId)
  expect(summary).toMatchObject({ status: 'done', verdicts: 120 })
  const askedAfter = fake.requests.slice(requestsBefore).map((r) => {
    const m = /Check candidate (\d+):/.exec(r.userText)
    return `mini:${m?.[1]}`
  })
  expect(askedAfter.filter((k) => finishedBeforeKill.has(k))).toEqual([])
  expect(new Set(askedAfter).size).toBe(askedAfter.length)
  expect(askedAfter.length).toBe(40 - finishedBeforeKill.size)
  ws.close()
})
