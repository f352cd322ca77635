import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Workspace } from '../../src/main/app/workspace'
import { createRuns } from '../../src/main/runs/create'
import { editUnit } from '../../src/main/units/edit'
import { type FakeRequest, type FakeServer, startFakeLlm, toolArgsFor } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { makeWorkspace } from '../runs/helpers'
import { batchEngine } from './helpers'

const dir = tmpDirs()
let fake: FakeServer
let edit: (() => void) | null = null
/** Every request the fake answered (batch lines included). */
const seen: FakeRequest[] = []
beforeAll(async () => {
  fake = await startFakeLlm({
    // The first answer names no valid verdict, so a repair retry follows in a second batch; the
    // person edits the fact while the first batch is out.
    script: (req) => {
      seen.push(req)
      if (!req.userText.includes('could not be used')) {
        edit?.()
        edit = null
        return { kind: 'tool', arguments: {} }
      }
      return { kind: 'tool', arguments: toolArgsFor(req, 'true') }
    },
  })
})
afterAll(() => fake.close())

const factText = (ws: Workspace) =>
  ws.db.prepare("SELECT id, text FROM units WHERE kind = 'fact'").get() as { id: number; text: string }

describe('a follow-up call of a batch run', () => {
  it('is built from the unit as it reads when the follow-up is made, not as the first pass read it', async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 1, 1)
    const before = factText(ws)
    edit = () => editUnit(ws.db, before.id, 'The edited fact.')
    const [run] = createRuns(ws.db, {
      datasetId,
      provider: 'openai',
      model: 'gpt-fake',
      baseUrl: fake.openaiUrl,
      method: 'faaf-tf',
      mode: 'batch',
      settings: { repairRetry: true },
      cache: false,
      backoffMs: 1,
    })
    const start = seen.length
    expect((await batchEngine(ws).start(run!)).status).toBe('done')
    const sent = seen.slice(start)
    expect(JSON.stringify(sent[0]!.schema)).toContain(before.text)
    const repair = sent.find((r) => r.userText.includes('could not be used'))!
    // The edit kept the unit (nobody had labelled it): the follow-up asks about its new wording.
    expect(factText(ws)).toEqual({ id: before.id, text: 'The edited fact.' })
    expect(JSON.stringify(repair.schema)).toContain('The edited fact.')
    expect(JSON.stringify(repair.schema)).not.toContain(before.text)
    ws.close()
  })
})
