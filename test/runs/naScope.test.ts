import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRuns } from '../../src/main/runs/create'
import { getRun } from '../../src/main/runs/repo'
import { REFCHECKER_SCHEMA } from '../../src/shared/labelSchemas'
import { batchEngine, setDatasetSchema } from '../batches/helpers'
import { type FakeRequest, type FakeServer, startFakeLlm, toolArgsFor } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { addEveryUnitKind, makeWorkspace, verdictRows } from './helpers'

/**
 * FaaF's paper reads a function call whose arguments fail validation as failed whole: every fact
 * of that call is N/A and none enters the error rate. Two items of three facts; the model answers
 * item 0 with a null verdict for fact_1 and item 1 correctly. By hand: the paper's rule gives
 * 3 verdicts and 3 N/A, the per-field choice 5 verdicts and 1 N/A, in sync and batch runs alike.
 */
const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({
    script: (req: FakeRequest) => {
      const args = toolArgsFor(req, req.userText.includes('Question 0?') ? 'true' : 'false')
      if (req.userText.includes('Question 0?')) {
        if ('fact_1' in args) args.fact_1 = null
        if ('claim_1' in args) delete args.claim_1
      }
      return { kind: 'tool', arguments: args }
    },
  })
})
afterAll(() => fake.close())

const base = (datasetId: number, provider: 'openai' | 'anthropic', method: string) => ({
  datasetId,
  provider,
  model: provider === 'openai' ? 'gpt-fake' : 'claude-fake',
  baseUrl: provider === 'openai' ? fake.openaiUrl : fake.anthropicUrl,
  method,
  cache: false,
  backoffMs: 1,
})

describe.each(['openai', 'anthropic'] as const)('%s', (provider) => {
  it.each(['sync', 'batch'] as const)(
    'FaaF in %s mode: a null verdict makes every fact of its call N/A, naming the argument',
    async (mode) => {
      const { ws, datasetId } = makeWorkspace(dir(), 2, 3)
      const [paper] = createRuns(ws.db, { ...base(datasetId, provider, 'faaf-tf-cite'), mode })
      const [field] = createRuns(ws.db, {
        ...base(datasetId, provider, 'faaf-tf-cite'),
        mode,
        settings: { naScope: 'field' },
      })
      const s = await batchEngine(ws).start(paper!)
      expect(s).toMatchObject({ status: 'done', verdicts: 3, na: 3, errors: 0 })
      const rows = verdictRows(ws, paper!)
      const problems = rows.filter((r) => r.status === 'na').map((r) => JSON.parse(r.detail).problem)
      expect(new Set(problems)).toEqual(
        new Set([
          'the call failed validation, so all 3 facts in it are N/A (fact 1: null is not one of "true", "false")',
        ]),
      )
      // The rule is written into the run, so it says which one read its replies.
      expect(getRun(ws.db, paper!).config.settings.naScope).toBe('call')

      expect(await batchEngine(ws).start(field!)).toMatchObject({ status: 'done', verdicts: 5, na: 1 })
      ws.close()
    },
  )
})

describe('batched RefChecker checker', () => {
  it.each(['sync', 'batch'] as const)(
    'in %s mode, a missing claim makes every claim of its call N/A',
    async (mode) => {
      const { ws, datasetId } = makeWorkspace(dir(), 2, 0)
      // Two triplets per response: one call per response.
      addEveryUnitKind(ws)
      addEveryUnitKind(ws)
      setDatasetSchema(ws, REFCHECKER_SCHEMA)
      const [run] = createRuns(ws.db, { ...base(datasetId, 'openai', 'refchecker-batched'), mode })
      expect(await batchEngine(ws).start(run!)).toMatchObject({ status: 'done', verdicts: 2, na: 2 })
      const na = verdictRows(ws, run!).filter((r) => r.status === 'na')
      expect(JSON.parse(na[0]!.detail).problem).toBe(
        'the call failed validation, so all 2 claims in it are N/A (no verdict for claim 1)',
      )
      ws.close()
    },
  )
})
