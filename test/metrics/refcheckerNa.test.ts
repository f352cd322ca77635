import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { toJsonReport, toMarkdown } from '../../src/main/reports'
import { createRuns } from '../../src/main/runs/create'
import { REFCHECKER_SCHEMA } from '../../src/shared/labelSchemas'
import { batchEngine } from '../batches/helpers'
import { type FakeRequest, type FakeServer, startFakeLlm, toolArgsFor } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { makeWorkspace } from '../runs/helpers'

/*
 * RefChecker's benchmark counts a checker label it cannot use as Neutral. Two responses of two
 * triplets each; the batched checker (read per field, so the other claim of the reply stands)
 * answers response 0 with claim_0 Entailment and no claim_1 (N/A), response 1 with two Entailments.
 * By hand:
 *   N/A as Neutral (default): response 0 reads E 1/2, N 1/2; response 1 E 1. Macro E 3/4, N 1/4;
 *     micro E 3/4, N 1/4; strict labels E 1, N 1.
 *   N/A left out: response 0 reads E 1. Macro and micro E 1; strict E 2.
 *   Either way one triplet is N/A, reported apart.
 */
const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({
    script: (req: FakeRequest) => {
      const args = toolArgsFor(req, 'entailment')
      if (req.userText.includes('Question 0?')) delete args.claim_1
      return { kind: 'tool', arguments: args }
    },
  })
})
afterAll(() => fake.close())

async function judged() {
  const { ws, datasetId } = makeWorkspace(dir(), 2, 0, REFCHECKER_SCHEMA)
  const rows = ws.db.prepare('SELECT id, item_id FROM candidates').all() as { id: number; item_id: number }[]
  ws.db.transaction(() => {
    for (const c of rows)
      for (const o of ['short', 'clear'])
        ws.content.insertUnit(c.item_id, {
          kind: 'triplet',
          text: `answer | is | ${o}`,
          triplet: ['answer', 'is', o],
          candidateId: c.id,
        })
  })()
  const [run] = createRuns(ws.db, {
    datasetId,
    provider: 'openai',
    model: 'gpt-fake',
    baseUrl: fake.openaiUrl,
    method: 'refchecker-batched',
    settings: { naScope: 'field' },
    cache: false,
  })
  expect(await batchEngine(ws).start(run!)).toMatchObject({ status: 'done', verdicts: 3, na: 1 })
  return { ws, datasetId }
}

describe('a checker N/A in the hallucination distribution', () => {
  it('counts as Neutral by default, as RefChecker’s benchmark, with the N/A count apart', async () => {
    const { ws, datasetId } = await judged()
    const m = computeDatasetMetrics(ws.db, datasetId)
    const e = m.refcheckerEval!
    expect(e.naRule).toBe('neutral')
    const j = e.judges[0]!
    expect(j.naTriplets).toBe(1)
    expect(j.macro).toEqual({ entailment: 0.75, neutral: 0.25, contradiction: 0 })
    expect(j.micro).toEqual({ entailment: 0.75, neutral: 0.25, contradiction: 0 })
    expect(j.strict).toEqual({ entailment: 1, neutral: 1, contradiction: 0 })
    // The judge table's older macro figure reads by the same rule.
    expect(m.judges[0]!.refchecker).toEqual({ entailment: 0.75, neutral: 0.25, contradiction: 0 })
    // The per-triplet error against people stays over readable labels (none here: no human labels).
    expect(j.tripletsCompared).toBe(0)

    const json = toJsonReport(m).refchecker!
    expect(json.na_rule).toBe('neutral')
    expect(json.na_rule_words).toBe("a checker N/A counts as Neutral (as RefChecker's benchmark)")
    expect(json.judges[0]!.na_triplets).toBe(1)
    expect(toMarkdown(m)).toContain(
      "Checker N/A (a label that could not be read): a checker N/A counts as Neutral (as RefChecker's benchmark)",
    )
    ws.close()
  })

  it('left out on request: the shares are over readable labels, and the rule says so', async () => {
    const { ws, datasetId } = await judged()
    const m = computeDatasetMetrics(ws.db, datasetId, { refcheckerNa: 'left-out' })
    const e = m.refcheckerEval!
    expect(e.naRule).toBe('left-out')
    expect(e.judges[0]!.naTriplets).toBe(1)
    expect(e.judges[0]!.macro).toEqual({ entailment: 1, neutral: 0, contradiction: 0 })
    expect(e.judges[0]!.strict).toEqual({ entailment: 2, neutral: 0, contradiction: 0 })
    expect(m.judges[0]!.refchecker).toEqual({ entailment: 1, neutral: 0, contradiction: 0 })
    expect(toJsonReport(m).refchecker!.na_rule).toBe('left-out')
    // The default rule's figures of the same workspace are not served for the other rule.
    expect(computeDatasetMetrics(ws.db, datasetId).refcheckerEval!.judges[0]!.macro!.neutral).toBe(0.25)
    ws.close()
  })
})
