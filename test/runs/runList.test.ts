import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runInfos } from '../../src/main/runs/queries'
import { runSummary, setRunStatus } from '../../src/main/runs/repo'
import type { Db } from '../../src/main/store/connection'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { engineFor, makeWorkspace, oneRun, runRequest } from './helpers'

const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: answerAll('true') })
})
afterAll(() => fake.close())

/** What the Judges view's list shows of a run, beside its full summary's figures. */
function listed(db: Db, datasetId: number, runId: number) {
  const info = runInfos(db, datasetId, () => false).find((r) => r.id === runId)
  const s = runSummary(db, runId)
  return {
    list: {
      calls: info?.calls,
      cost: info?.cost,
      tokens: info?.promptTokens,
      ok: info?.verdicts,
      na: info?.na,
      err: info?.errors,
    },
    summary: {
      calls: s.calls,
      cost: s.cost,
      tokens: s.prompt_tokens,
      ok: s.verdicts,
      na: s.na,
      err: s.errors,
    },
  }
}

describe("the Judges view's run list", () => {
  it('shows what the rows say, reload after reload, when a finished run runs again or its verdicts change', async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 4, 2)
    const runId = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { cache: false }))
    await engineFor(ws).start(runId)
    const first = listed(ws.db, datasetId, runId)
    expect(first.list).toEqual(first.summary)
    expect(first.list.calls).toBeGreaterThan(0)
    // A reload with nothing changed reads the same.
    expect(listed(ws.db, datasetId, runId).list).toEqual(first.list)

    // The run goes again and makes one more call, as a resume would; its finish time may even be
    // the same millisecond as before.
    setRunStatus(ws.db, runId, 'running')
    ws.db
      .prepare(
        `INSERT INTO run_calls (run_id, call_key, status, cached, attempts, prompt_tokens, completion_tokens, cost, finished_at)
         VALUES (?, 'extra', 'done', 0, 1, 50, 5, 0.25, '2026-01-01')`,
      )
      .run(runId)
    setRunStatus(ws.db, runId, 'done')
    const again = listed(ws.db, datasetId, runId)
    expect(again.list).toEqual(again.summary)
    expect(again.list.calls).toBe((first.list.calls ?? 0) + 1)
    expect(again.list.cost).toBeCloseTo((first.list.cost ?? 0) + 0.25, 10)

    // A finished run's verdict turned into an error (a merge, an edit by another process).
    ws.db
      .prepare(
        "UPDATE verdicts SET status = 'error', verdict = NULL WHERE run_id = ? AND id = (SELECT MIN(id) FROM verdicts WHERE run_id = ?)",
      )
      .run(runId, runId)
    const edited = listed(ws.db, datasetId, runId)
    expect(edited.list).toEqual(edited.summary)
    expect(edited.list.err).toBe((first.list.err ?? 0) + 1)
    ws.close()
  })
})
