import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { createRuns } from '../../src/main/runs/create'
import { LATEST_VERSION, schemaVersion } from '../../src/main/store/connection'
import { batchEngine } from '../batches/helpers'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { makeWorkspace } from '../runs/helpers'

const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: answerAll('true') })
})
afterAll(() => fake.close())

const callHashes = (ws: Workspace, runId: number) =>
  ws.db
    .prepare('SELECT call_key, request_hash FROM run_calls WHERE run_id = ? ORDER BY call_key')
    .all(runId) as { call_key: string; request_hash: string | null }[]

describe('migration 0280: batch calls carry their request hash', () => {
  it('a batch run finished before it reads, call by call, as one finished after it', async () => {
    const root = dir()
    const { ws, datasetId } = makeWorkspace(root, 2, 2)
    const [run] = createRuns(ws.db, {
      datasetId,
      provider: 'openai',
      model: 'gpt-fake',
      baseUrl: fake.openaiUrl,
      method: 'faaf-tf',
      mode: 'batch',
      cache: false,
      backoffMs: 1,
    })
    expect((await batchEngine(ws).start(run!)).status).toBe('done')
    const now = callHashes(ws, run!)
    expect(now.length).toBeGreaterThan(0)
    expect(now.every((c) => c.request_hash !== null)).toBe(true)
    // As the code before 0280 left them: the hash on the batch request only.
    ws.db.prepare('UPDATE run_calls SET request_hash = NULL WHERE run_id = ?').run(run!)
    ws.db.exec('ALTER TABLE runs DROP COLUMN planned_calls')
    ws.db.pragma('user_version = 260')
    ws.close()

    const again = Workspace.open(join(root, 'ws.factlab'))
    expect(schemaVersion(again.db)).toBe(LATEST_VERSION)
    expect(callHashes(again, run!)).toEqual(now)
    again.close()
  })
})
