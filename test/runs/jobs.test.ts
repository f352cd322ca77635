import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DCE_TOOL_NAME } from '../../src/main/judges/dcr'
import { RAI_TOOL_NAME } from '../../src/main/judges/rai'
import { BUILTIN_REGISTRY } from '../../src/main/runs/builtin'
import { createRuns } from '../../src/main/runs/create'
import { improvementPlan, improvementReport, nothingToImprove } from '../../src/main/runs/improve'
import { BINARY_SCHEMA, FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { answerAll, type FakeServer, startFakeLlm, toolArgsFor } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { engineFor, makeWorkspace, oneRun, runRequest } from './helpers'

const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: answerAll('true') })
})
afterAll(() => fake.close())

const count = (ws: ReturnType<typeof makeWorkspace>['ws'], sql: string, ...args: unknown[]) =>
  (ws.db.prepare(sql).get(...args) as { n: number }).n

describe('extraction runs (units generate)', () => {
  it('writes facts per item with origin llm:<run>, and targets follow', async () => {
    fake.setScript(answerAll('true'))
    const { ws, datasetId } = makeWorkspace(dir(), 3, 0)
    const runId = oneRun(ws, {
      ...runRequest(datasetId, fake.openaiUrl, { method: 'facts' }),
      kind: 'extract',
    })
    const s = await engineFor(ws, { registry: BUILTIN_REGISTRY }).start(runId)
    expect(s).toMatchObject({ status: 'done', calls: 3 })
    const facts = count(
      ws,
      "SELECT COUNT(*) AS n FROM units WHERE kind = 'fact' AND origin = ?",
      `llm:${runId}`,
    )
    expect(facts).toBeGreaterThanOrEqual(3)
    expect(count(ws, 'SELECT COUNT(*) AS n FROM targets')).toBe(facts)
    // Resuming a finished extraction adds nothing.
    ws.db.prepare("UPDATE runs SET status = 'paused' WHERE id = ?").run(runId)
    await engineFor(ws, { registry: BUILTIN_REGISTRY }).start(runId)
    expect(count(ws, "SELECT COUNT(*) AS n FROM units WHERE kind = 'fact'")).toBe(facts)
    ws.close()
  })

  it('fills only missing questions, and splits sentences without any call', async () => {
    fake.setScript((req) => ({ kind: 'tool', arguments: toolArgsFor(req, 'x') }))
    const { ws, datasetId } = makeWorkspace(dir(), 2, 0)
    ws.db.prepare('UPDATE items SET question = NULL WHERE ext_id = ?').run('q0')
    const q = oneRun(ws, {
      ...runRequest(datasetId, fake.openaiUrl, { method: 'questions' }),
      kind: 'extract',
    })
    expect(await engineFor(ws, { registry: BUILTIN_REGISTRY }).start(q)).toMatchObject({
      status: 'done',
      calls: 1,
    })
    const questions = ws.db.prepare('SELECT ext_id, question FROM items ORDER BY position').all() as {
      ext_id: string
      question: string
    }[]
    expect(questions[0]?.question).toBeTruthy()
    expect(questions[1]?.question).toBe('Question 1?')
    const before = fake.calls()
    const s = oneRun(ws, {
      ...runRequest(datasetId, '', { provider: 'lexical', model: 'splitter', method: 'sentences' }),
      kind: 'extract',
    })
    expect(await engineFor(ws, { registry: BUILTIN_REGISTRY }).start(s)).toMatchObject({
      status: 'done',
      calls: 0,
    })
    expect(fake.calls()).toBe(before)
    expect(count(ws, "SELECT COUNT(*) AS n FROM units WHERE kind = 'sentence'")).toBe(2)
    ws.close()
  })
  // The run's note is read in the Judges view and `judge status`: a count in words, no "task(s)".
  it('says how many tasks gave nothing usable in the singular and the plural', async () => {
    fake.setScript(() => ({ kind: 'tool', arguments: { facts: ['', ' '] } }))
    for (const [items, words] of [
      [1, '1 task gave nothing usable; first: item '],
      [2, '2 tasks gave nothing usable; first: item '],
    ] as const) {
      const { ws, datasetId } = makeWorkspace(dir(), items, 0)
      // The model returns no fact for any item: every task gives nothing usable.
      const q = oneRun(ws, {
        ...runRequest(datasetId, fake.openaiUrl, { method: 'facts' }),
        kind: 'extract',
      })
      await engineFor(ws, { registry: BUILTIN_REGISTRY }).start(q)
      const note =
        (ws.db.prepare('SELECT error FROM runs WHERE id = ?').pluck().get(q) as string | null) ?? ''
      expect(note.startsWith(words), note).toBe(true)
      expect(note).not.toContain('(s)')
      ws.close()
    }
  })
})

/** A round of improvementReport with no failed or unscored rewrite. */
const round = (k: number, rewritten: number, inconsistent: number, corrected: number) => ({
  round: k,
  rewritten,
  inconsistent,
  corrected,
  failed: 0,
  unscored: 0,
  rate: inconsistent === 0 ? null : corrected / inconsistent,
})

// DCR's decisions are stored in the dataset's words (consistent → true or yes); RAI reads them so.
describe.each([
  { name: 'faaf', schema: FAAF_SCHEMA },
  { name: 'yes/no', schema: BINARY_SCHEMA },
])('RAI improvement runs on a $name dataset', ({ schema }) => {
  it('rewrites inconsistent candidates as <variant>+rai1, re-judges them and reports the rate', async () => {
    const FIXED = 'The fixed answer.'
    fake.setScript((req) => {
      if (req.toolName === RAI_TOOL_NAME) return { kind: 'tool', arguments: { rewritten: FIXED } }
      if (req.toolName === DCE_TOOL_NAME) {
        const decision = req.userText.includes(FIXED) ? 'consistent' : 'inconsistent'
        return { kind: 'tool', arguments: { sentences: [{ number: 1, reason: 'compared', decision }] } }
      }
      return answerAll('true')(req, 0)
    })
    const { ws, datasetId } = makeWorkspace(dir(), 2, 0, schema)
    const engine = engineFor(ws, { registry: BUILTIN_REGISTRY })
    const split = oneRun(ws, {
      ...runRequest(datasetId, '', { provider: 'lexical', model: 'splitter', method: 'sentences' }),
      kind: 'extract',
    })
    await engine.start(split)
    const dcrRun = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { method: 'dcr' }))
    expect(await engine.start(dcrRun)).toMatchObject({ status: 'done', verdicts: 2 })
    const [improve] = createRuns(ws.db, {
      ...runRequest(datasetId, fake.openaiUrl, { method: 'dcr' }),
      kind: 'improve',
      sourceRunId: dcrRun,
      rounds: 1,
    })
    const s = await engine.start(improve!)
    expect(s.status).toBe('done')
    const rewrites = ws.db
      .prepare(
        'SELECT variant, text, parent_candidate_id FROM candidates WHERE parent_candidate_id IS NOT NULL',
      )
      .all() as { variant: string; text: string }[]
    expect(rewrites).toHaveLength(2)
    expect(rewrites.every((r) => r.variant === 'answer+rai1' && r.text === FIXED)).toBe(true)
    expect(improvementReport(ws.db, improve!, dcrRun, 1)).toEqual([
      {
        ...round(1, 2, 2, 2),
        originals: 2,
        correctedSoFar: 2,
        cumulativeRate: 1,
        unjudged: 0,
        unjudgedKept: 0,
      },
    ])
    const words = ws.db.prepare('SELECT DISTINCT verdict FROM verdicts ORDER BY verdict').pluck().all()
    expect(words).toEqual(schema.values.slice(0, 2).sort())
    ws.close()
  })
})

// A sentence the judge gave no verdict on (N/A) is not an inconsistent one: it is neither counted nor rewritten.
describe('RAI and sentences without a verdict', () => {
  const judgeAnswers =
    (decisions: Record<string, 'consistent' | 'inconsistent' | 'none'>) =>
    (req: Parameters<Parameters<FakeServer['setScript']>[0]>[0]) => {
      if (req.toolName === RAI_TOOL_NAME) return { kind: 'tool' as const, arguments: { rewritten: 'Fixed.' } }
      if (req.toolName === DCE_TOOL_NAME) {
        const decision =
          Object.entries(decisions).find(([text]) => req.userText.includes(text))?.[1] ?? 'consistent'
        // No finding for sentence 1 is an N/A verdict.
        const sentences = decision === 'none' ? [] : [{ number: 1, reason: 'compared', decision }]
        return { kind: 'tool' as const, arguments: { sentences } }
      }
      return answerAll('true')(req, 0)
    }

  async function judged(decisions: Record<string, 'consistent' | 'inconsistent' | 'none'>, items: number) {
    fake.setScript(judgeAnswers(decisions))
    const { ws, datasetId } = makeWorkspace(dir(), items, 0)
    const engine = engineFor(ws, { registry: BUILTIN_REGISTRY })
    await engine.start(
      oneRun(ws, {
        ...runRequest(datasetId, '', { provider: 'lexical', model: 'splitter', method: 'sentences' }),
        kind: 'extract',
      }),
    )
    const dcrRun = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { method: 'dcr' }))
    await engine.start(dcrRun)
    const improve = async () => {
      const [id] = createRuns(ws.db, {
        ...runRequest(datasetId, fake.openaiUrl, { method: 'dcr' }),
        kind: 'improve',
        sourceRunId: dcrRun,
        rounds: 2,
      })
      expect((await engine.start(id!)).status).toBe('done')
      return id!
    }
    return { ws, dcrRun, improve }
  }

  const rewrites = (ws: ReturnType<typeof makeWorkspace>['ws']) =>
    ws.db.prepare('SELECT variant FROM candidates WHERE parent_candidate_id IS NOT NULL').pluck().all()

  it('counts a failed rewrite as not corrected and gives the cumulative rate over the rounds', async () => {
    fake.setScript((req) => {
      if (req.toolName === RAI_TOOL_NAME) {
        // Answer 2's rewrite comes back malformed: no rewrite is made for it.
        if (req.userText.includes('Answer 2.')) return { kind: 'tool', arguments: { wrong: 'field' } }
        const rewritten = req.userText.includes('Answer 1.') ? 'Still wrong.' : 'Fixed.'
        return { kind: 'tool', arguments: { rewritten } }
      }
      if (req.toolName === DCE_TOOL_NAME) {
        const decision = req.userText.includes('Fixed.') ? 'consistent' : 'inconsistent'
        return { kind: 'tool', arguments: { sentences: [{ number: 1, reason: 'compared', decision }] } }
      }
      return answerAll('true')(req, 0)
    })
    const { ws, datasetId } = makeWorkspace(dir(), 3, 0)
    const engine = engineFor(ws, { registry: BUILTIN_REGISTRY })
    await engine.start(
      oneRun(ws, {
        ...runRequest(datasetId, '', { provider: 'lexical', model: 'splitter', method: 'sentences' }),
        kind: 'extract',
      }),
    )
    const dcrRun = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { method: 'dcr' }))
    await engine.start(dcrRun)
    const [id] = createRuns(ws.db, {
      ...runRequest(datasetId, fake.openaiUrl, { method: 'dcr' }),
      kind: 'improve',
      sourceRunId: dcrRun,
      rounds: 2,
    })
    await engine.start(id!)
    // Round 1: of 3 inconsistent, Answer 0 fixed, Answer 1 still wrong, Answer 2 not rewritten:
    // 1/3, not 1/2. Round 2 fixes the one left: 1/1 of the round, 2/3 of the originals.
    expect(improvementReport(ws.db, id!, dcrRun, 2)).toEqual([
      {
        ...round(1, 2, 3, 1),
        failed: 1,
        originals: 3,
        correctedSoFar: 1,
        cumulativeRate: 1 / 3,
        unjudged: 0,
        unjudgedKept: 0,
      },
      {
        ...round(2, 1, 1, 1),
        originals: 3,
        correctedSoFar: 2,
        cumulativeRate: 2 / 3,
        unjudged: 0,
        unjudgedKept: 0,
      },
    ])
    ws.close()
  })

  it('a run whose only flaw is an N/A sentence adds no variant and says there is nothing to improve', async () => {
    const { ws, dcrRun, improve } = await judged({ 'Answer 0.': 'consistent', 'Answer 1.': 'none' }, 2)
    const plan = improvementPlan(ws.db, dcrRun)
    expect(plan).toEqual({ candidates: 0, inconsistent: 0, unjudged: 1, variants: [] })
    expect(nothingToImprove(plan, dcrRun)).toBe(
      `Nothing to improve: run ${dcrRun} found no sentence inconsistent (1 sentence has no verdict and is not rewritten), so no rewrite is made and no variant added`,
    )
    const calls = fake.calls()
    const id = await improve()
    expect(rewrites(ws)).toEqual([])
    expect(fake.calls()).toBe(calls)
    expect(improvementReport(ws.db, id, dcrRun, 1)).toEqual([
      {
        ...round(1, 0, 0, 0),
        originals: 0,
        correctedSoFar: 0,
        cumulativeRate: null,
        unjudged: 0,
        unjudgedKept: 0,
      },
    ])
    ws.close()
  })

  it('rewrites only the inconsistent candidate beside an N/A one, and a round with nothing left adds nothing', async () => {
    const { ws, dcrRun, improve } = await judged(
      { 'Answer 0.': 'none', 'Answer 1.': 'inconsistent', 'Fixed.': 'consistent' },
      2,
    )
    expect(improvementPlan(ws.db, dcrRun)).toEqual({
      candidates: 1,
      inconsistent: 1,
      unjudged: 1,
      variants: ['answer+rai1'],
    })
    const id = await improve()
    expect(rewrites(ws)).toEqual(['answer+rai1'])
    expect(improvementReport(ws.db, id, dcrRun, 2)).toEqual([
      {
        ...round(1, 1, 1, 1),
        originals: 1,
        correctedSoFar: 1,
        cumulativeRate: 1,
        unjudged: 0,
        unjudgedKept: 0,
      },
      {
        ...round(2, 0, 0, 0),
        originals: 1,
        correctedSoFar: 1,
        cumulativeRate: 1,
        unjudged: 0,
        unjudgedKept: 0,
      },
    ])
    ws.close()
  })

  it('rewrites a candidate with an N/A and an inconsistent sentence, keeping the N/A one and counting it apart', async () => {
    const prompts: string[] = []
    fake.setScript((req) => {
      if (req.toolName === RAI_TOOL_NAME) {
        prompts.push(req.userText)
        return { kind: 'tool', arguments: { rewritten: 'Answer 0. Shakespeare wrote it.' } }
      }
      if (req.toolName === DCE_TOOL_NAME) {
        // Sentence 1 never gets a finding (N/A), in the original and in the rewrite alike.
        const decision = req.userText.includes('Marlowe') ? 'inconsistent' : 'consistent'
        return { kind: 'tool', arguments: { sentences: [{ number: 2, reason: 'the author', decision }] } }
      }
      return answerAll('true')(req, 0)
    })
    const { ws, datasetId } = makeWorkspace(dir(), 1, 0)
    ws.db.prepare('UPDATE candidates SET text = ?').run('Answer 0. Marlowe wrote it.')
    const engine = engineFor(ws, { registry: BUILTIN_REGISTRY })
    await engine.start(
      oneRun(ws, {
        ...runRequest(datasetId, '', { provider: 'lexical', model: 'splitter', method: 'sentences' }),
        kind: 'extract',
      }),
    )
    const dcrRun = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { method: 'dcr' }))
    await engine.start(dcrRun)
    expect(improvementPlan(ws.db, dcrRun)).toMatchObject({ candidates: 1, inconsistent: 1, unjudged: 1 })
    const [id] = createRuns(ws.db, {
      ...runRequest(datasetId, fake.openaiUrl, { method: 'dcr' }),
      kind: 'improve',
      sourceRunId: dcrRun,
      rounds: 1,
    })
    expect((await engine.start(id!)).status).toBe('done')
    // The rewrite is told to leave the sentence the judge failed on as it is.
    expect(prompts[0]).toContain('1. [no verdict: keep as is] Answer 0.')
    expect(prompts[0]).toContain('2. [INCONSISTENT] Marlowe wrote it. Reason: the author')
    // The rewrite's N/A sentence does not hold back its correction, and the round says what became of it.
    expect(improvementReport(ws.db, id!, dcrRun, 1)).toEqual([
      {
        ...round(1, 1, 1, 1),
        originals: 1,
        correctedSoFar: 1,
        cumulativeRate: 1,
        unjudged: 1,
        unjudgedKept: 1,
      },
    ])
    ws.close()
  })
})
