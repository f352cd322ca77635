import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schemaFit, toSchemaWords } from '../../src/main/judges/schemaFit'
import { BUILTIN_REGISTRY } from '../../src/main/runs/builtin'
import { JUDGE_METHODS } from '../../src/shared/domain'
import {
  BINARY_SCHEMA,
  checkVerdict,
  DCR_SCHEMA,
  FAAF_SCHEMA,
  holisticSchema,
  type LabelSchema,
  numericSchema,
  REFCHECKER_SCHEMA,
} from '../../src/shared/labelSchemas'
import { OWN_SCORE_WORDS } from '../../src/shared/ownScore'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { addEveryUnitKind, engineFor, makeWorkspace, oneRun, runRequest, verdictRows } from '../runs/helpers'

const SCHEMAS: LabelSchema[] = [
  FAAF_SCHEMA,
  REFCHECKER_SCHEMA,
  DCR_SCHEMA,
  holisticSchema(),
  BINARY_SCHEMA,
  numericSchema('summeval', 1, 5, 3),
]

describe('method × label schema rule', () => {
  it('the lexical baseline fits every schema; DCR and holistic keep their own scores on a numeric scale; other word methods never fit one', () => {
    for (const schema of SCHEMAS) expect(schemaFit('lexical', schema).ok).toBe(true)
    const numeric = numericSchema('msrpar', 0, 5, 2.5)
    expect(schemaFit('dcr', numeric)).toEqual({ ok: true, mode: 'own-score' })
    expect(schemaFit('holistic', numeric)).toEqual({ ok: true, mode: 'own-score' })
    // A word without its number cannot be read on the scale: N/A, saying why.
    const out = toSchemaWords(schemaFit('dcr', numeric), numeric, [
      { targetId: 1, status: 'ok', verdict: 'consistent', score: 1 },
      { targetId: 2, status: 'ok', verdict: 'consistent' },
    ])
    expect(out[0]).toMatchObject({ status: 'ok', verdict: 'consistent', score: 1 })
    expect(out[1]).toMatchObject({
      status: 'na',
      verdict: null,
      problem: '"consistent" came without its score',
    })
    for (const m of JUDGE_METHODS.filter((x) => !['lexical', 'dcr', 'holistic'].includes(x))) {
      const fit = schemaFit(m, numeric)
      expect(fit.ok).toBe(false)
      if (!fit.ok) expect(fit.reason).toMatch(/numeric scale \(0–5\)/)
    }
  })

  it('a two-sided method maps onto a yes/no schema through supported / unsupported', () => {
    const fit = schemaFit('dcr', BINARY_SCHEMA)
    expect(fit).toEqual({ ok: true, mode: 'translated', map: { consistent: 'yes', inconsistent: 'no' } })
    expect(schemaFit('refchecker', BINARY_SCHEMA)).toMatchObject({
      map: { entailment: 'yes', neutral: 'no', contradiction: 'no' },
    })
    // Holistic: "fail" (score 0) is the unsupported word, not partially_pass.
    expect(schemaFit('faaf-tf', holisticSchema())).toMatchObject({ map: { true: 'pass', false: 'fail' } })
  })

  it('refuses, with both vocabularies named, when both sides tell kinds of unsupported apart', () => {
    const fit = schemaFit('refchecker', FAAF_SCHEMA)
    expect(fit.ok).toBe(false)
    if (!fit.ok) expect(fit.reason).toMatch(/"neutral" \/ "contradiction" against "false" \/ "not_clear"/)
    expect(schemaFit('faaf-tfn', REFCHECKER_SCHEMA).ok).toBe(false)
    expect(schemaFit('holistic', FAAF_SCHEMA).ok).toBe(false)
  })

  it('a verdict outside the schema is N/A with the reason, a translated one keeps the method word', () => {
    const fit = schemaFit('dcr', BINARY_SCHEMA)
    const out = toSchemaWords(fit, BINARY_SCHEMA, [
      { targetId: 1, status: 'ok', verdict: 'inconsistent' },
      { targetId: 2, status: 'ok', verdict: 'maybe' },
    ])
    expect(out[0]).toMatchObject({ verdict: 'no', detail: { methodVerdict: 'inconsistent' } })
    expect(out[1]).toMatchObject({ status: 'na', verdict: null })
    expect(out[1]!.problem).toMatch(/outside the dataset's schema/)
  })
})

const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: answerAll('true') })
})
afterAll(() => fake.close())

// Alternate supported and unsupported words so both sides of every mapping are exercised.
function script(): void {
  fake.setScript((req, n) => {
    const yes = n % 2 === 0
    if (req.schema) {
      const words = yes
        ? ['true', 'entailment', 'consistent', 'pass']
        : ['false', 'neutral', 'inconsistent', 'fail']
      const text = JSON.stringify(req.schema)
      return answerAll(words.find((w) => text.includes(`"${w}"`)) ?? words[0]!)(req, n)
    }
    if (/entailment/i.test(req.userText)) return { kind: 'text', text: yes ? 'Entailment' : 'Contradiction' }
    return { kind: 'text', text: yes ? 'True' : 'False' }
  })
}

describe.each(SCHEMAS.map((s) => ({ name: s.name, schema: s })))(
  'every method on a $name dataset',
  ({ schema }) => {
    it.each([...JUDGE_METHODS])(
      '%s answers only in the schema, or is refused before any call',
      async (method) => {
        script()
        const { ws, datasetId } = makeWorkspace(dir(), 2, 2, schema)
        addEveryUnitKind(ws)
        const fit = schemaFit(method, schema)
        const request = runRequest(datasetId, fake.openaiUrl, {
          provider: method === 'lexical' ? 'lexical' : 'openai',
          model: method === 'lexical' ? 'rougeL' : 'gpt-fake',
          method,
          cache: false,
        })
        if (!fit.ok) {
          const before = fake.calls()
          expect(() => oneRun(ws, request)).toThrow(/cannot answer in the dataset's label schema/)
          expect(fake.calls()).toBe(before)
          ws.close()
          return
        }
        const runId = oneRun(ws, request)
        const s = await engineFor(ws, { registry: BUILTIN_REGISTRY }).start(runId)
        expect(s.status).toBe('done')
        const rows = verdictRows(ws, runId)
        const ok = rows.filter((r) => r.status === 'ok')
        expect(ok.length).toBeGreaterThan(0)
        if (fit.mode === 'own-score')
          // A numeric scale has no words: DCR and the holistic judge keep theirs with their number.
          for (const r of ok) expect(Object.keys(OWN_SCORE_WORDS[method]!)).toContain(r.verdict)
        else for (const r of ok) expect(checkVerdict(schema, r.verdict!)).toBeNull()
        ws.close()
      },
    )
  },
)
