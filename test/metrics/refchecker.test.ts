import { describe, expect, it } from 'vitest'
import { importFile } from '../../src/main/import'
import { evaluateResponses, strictLabel } from '../../src/main/metrics/refchecker/evaluate'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { toJsonReport } from '../../src/main/reports'
import { SETTING } from '../helpers/refcheckerRelease'
import { workspaces } from '../import/helpers'

const { ws: newWs } = workspaces()

/*
 * The human labels of the seven fixture files, by hand (E entailment, N neutral, C contradiction;
 * "—" a response with no triplets, an abstention). Four questions each:
 *
 *   model                q1       q2       q3         q4
 *   alpaca_7B            E E      E N C    —          C
 *   chatgpt              E        E E N    N N        E C
 *   claude2              E E E    —        E N        E
 *   davinci001           C C      E N      N          — (no kg key at all)
 *   falcon_40B_instruct  E N      E        C E E E    —
 *   gpt4                 E E      E E      E N        E
 *   llama2_70b_chat      N        E C      E E N N    E E
 *
 * Abstentions: 4 of 28 responses. Triplets of the other 24: E 29, N 12, C 7 (48).
 * Micro: 29/48, 12/48, 7/48.
 * Macro entailment: per-response E shares summed per model —
 *   alpaca 1 + 1/3 + 0 = 4/3; chatgpt 1 + 2/3 + 0 + 1/2 = 13/6; claude2 1 + 1/2 + 1 = 5/2;
 *   davinci 0 + 1/2 + 0 = 1/2; falcon 1/2 + 1 + 3/4 = 9/4; gpt4 1 + 1 + 1/2 + 1 = 7/2;
 *   llama 0 + 1/2 + 1/2 + 1 = 2; total 171/12 over 24 responses = 171/288.
 * Macro contradiction: alpaca 1/3 + 1; chatgpt 1/2; davinci 1; falcon 1/4; llama 1/2
 *   = 43/12 over 24 = 43/288. Neutral: 1 − the two.
 * Responses with a contradiction: alpaca q2 q4, chatgpt q4, davinci q1, falcon q3, llama q2 = 6/24.
 * Strict labels: C 6; N: chatgpt q2 q3, claude2 q3, davinci q2 q3, falcon q1, gpt4 q3,
 *   llama q1 q3 = 9; E: 24 − 15 = 9.
 */
describe("RefChecker's evaluation on the released layout", () => {
  it('human-label figures match the hand computation, overall and per model', async () => {
    const ws = newWs()
    const r = await importFile(ws, { file: SETTING })
    const m = computeDatasetMetrics(ws.db, r.datasetId)
    const h = m.refcheckerEval!.human
    expect(h.responses).toBe(28)
    expect(h.abstentions).toBe(4)
    expect(h.abstentionRate).toBeCloseTo(4 / 28, 12)
    expect(h.judged).toBe(24)
    expect(h.triplets).toBe(48)
    expect(h.micro!.entailment).toBeCloseTo(29 / 48, 12)
    expect(h.micro!.neutral).toBeCloseTo(12 / 48, 12)
    expect(h.micro!.contradiction).toBeCloseTo(7 / 48, 12)
    expect(h.macro!.entailment).toBeCloseTo(171 / 288, 12)
    expect(h.macro!.contradiction).toBeCloseTo(43 / 288, 12)
    expect(h.macro!.neutral).toBeCloseTo(1 - 171 / 288 - 43 / 288, 12)
    expect(h.hallucinationRate).toBeCloseTo(6 / 24, 12)
    expect(h.strict).toEqual({ entailment: 9, neutral: 9, contradiction: 6 })
    // The older macro figure agrees with the new one.
    expect(m.goldRefchecker!.entailment).toBeCloseTo(171 / 288, 12)

    // Per model: alpaca 3 judged responses, 1 abstention; macro 4/9, 1/9, 4/9; 2 of 3 hallucinate.
    const alpaca = h.byVariant.alpaca_7B!
    expect(alpaca).toMatchObject({ responses: 4, abstentions: 1, judged: 3, triplets: 6 })
    expect(alpaca.macro!.entailment).toBeCloseTo(4 / 9, 12)
    expect(alpaca.macro!.neutral).toBeCloseTo(1 / 9, 12)
    expect(alpaca.macro!.contradiction).toBeCloseTo(4 / 9, 12)
    expect(alpaca.micro!.entailment).toBeCloseTo(3 / 6, 12)
    expect(alpaca.hallucinationRate).toBeCloseTo(2 / 3, 12)
    // chatgpt: macro E 13/24, N 1/3, C 1/8; micro E 4/8, N 3/8, C 1/8; 1 of 4 hallucinates.
    const chatgpt = h.byVariant.chatgpt!
    expect(chatgpt.abstentions).toBe(0)
    expect(chatgpt.macro!.entailment).toBeCloseTo(13 / 24, 12)
    expect(chatgpt.macro!.neutral).toBeCloseTo(1 / 3, 12)
    expect(chatgpt.micro!.neutral).toBeCloseTo(3 / 8, 12)
    expect(chatgpt.hallucinationRate).toBeCloseTo(1 / 4, 12)
    expect(h.byVariant.davinci001!.abstentions).toBe(1)

    // Few responses per model: intervals are Wilson's, never a point.
    for (const f of [h, alpaca, chatgpt]) {
      const ci = f.hallucinationCi!
      expect(ci[1]).toBeGreaterThan(ci[0])
    }
    const json = toJsonReport(m)
    expect(json.refchecker!.human.abstention_rate).toBeCloseTo(4 / 28, 12)
    expect(json.refchecker!.human.by_variant.gpt4!.hallucination_rate).toBe(0)
  })

  it('strict labels and abstentions', () => {
    expect(strictLabel(['entailment', 'neutral'])).toBe('neutral')
    expect(strictLabel(['entailment', 'contradiction', 'neutral'])).toBe('contradiction')
    expect(strictLabel(['entailment'])).toBe('entailment')
    const f = evaluateResponses([
      { key: 1, variant: 'a', triplets: 0, labels: [] },
      { key: 2, variant: 'a', triplets: 2, labels: ['entailment', 'contradiction'] },
    ])
    expect(f).toMatchObject({ responses: 2, abstentions: 1, judged: 1, hallucinationRate: 1 })
  })
})
