import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runInfos } from '../../src/main/runs/queries'
import { getRun } from '../../src/main/runs/repo'
import { errorClass } from '../../src/main/verdicts/failures'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { engineFor, makeWorkspace, oneRun, runRequest } from './helpers'

const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: answerAll('true') })
})
afterAll(() => fake.close())

describe('failed calls', () => {
  it('a run whose every call fails ends failed, naming the first error’s class and message', async () => {
    fake.setScript(() => ({ kind: 'status', status: 500 }))
    const { ws, datasetId } = makeWorkspace(dir(), 3, 2)
    const runId = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { maxAttempts: 1, cache: false }))
    const summary = await engineFor(ws).start(runId)
    expect(summary.status).toBe('failed')
    const run = getRun(ws.db, runId)
    expect(run.status).toBe('failed')
    expect(run.error).toMatch(
      /^Every call failed \(6 targets, no verdict\)\. First error — server error: .*500/,
    )
    const [info] = runInfos(ws.db, datasetId, () => false)
    expect(info).toMatchObject({
      status: 'failed',
      errors: 6,
      errorClasses: [{ name: 'server error', count: 6 }],
    })
    ws.close()
  })

  it('a run with some failed calls ends done and lists the failures by class and count', async () => {
    // The first call of each of two candidates fails; the rest answer.
    let k = 0
    fake.setScript((req, n) => (k++ < 2 ? { kind: 'status', status: 500 } : answerAll('true')(req, n)))
    const { ws, datasetId } = makeWorkspace(dir(), 4, 2)
    const runId = oneRun(
      ws,
      runRequest(datasetId, fake.openaiUrl, { maxAttempts: 1, cache: false, concurrency: 1 }),
    )
    const summary = await engineFor(ws).start(runId)
    expect(summary.status).toBe('done')
    const [info] = runInfos(ws.db, datasetId, () => false)
    expect(info!.error).toBeNull()
    expect(info!.errorClasses).toEqual([{ name: 'server error', count: 4 }])
    expect(info!.verdicts).toBe(4)
    ws.close()
  })

  it('names the classes a person would look into', () => {
    expect(errorClass('no reply within 2000 ms (after 3 attempts)')).toBe('timeout')
    expect(errorClass('429 Too Many Requests (after 5 attempts)')).toBe('rate limit')
    expect(errorClass('500 Internal Server Error (after 1 attempt)')).toBe('server error')
    expect(errorClass('Connection error. (after 3 attempts)')).toBe('connection')
    expect(errorClass('401 Incorrect API key provided')).toBe('authentication')
    expect(errorClass('the lexical provider cannot make LLM calls (after 1 attempt)')).toBe('method failure')
  })
})
