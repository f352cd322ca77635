import { describe, expect, it } from 'vitest'
import { parseRefcheckerLabel } from '../../src/main/judges/refchecker'
import { METHODS } from '../../src/main/judges/registry'
import type { TargetInput } from '../../src/main/judges/types'
import { scriptedCtx, task, textReply, toolReply } from './scripted'

const triplets: TargetInput[] = [
  ['Ibuprofen', 'common side effect', 'nausea'],
  ['Ibuprofen', 'common side effect', 'respiratory trouble'],
  ['Ibuprofen', 'is', 'an NSAID'],
].map((t, i) => ({
  targetId: 200 + i,
  unitId: 300 + i,
  kind: 'triplet',
  text: t.join(' '),
  triplet: t as [string, string, string],
}))

const ref =
  'Common side effects of ibuprofen are headaches, dizziness and nausea. Difficulty breathing is not common.'

describe('parseRefcheckerLabel', () => {
  it('accepts one of the three labels as the first word, in any case', () => {
    expect(parseRefcheckerLabel('Entailment')).toEqual({ ok: true, verdict: 'entailment' })
    expect(parseRefcheckerLabel('CONTRADICTION.')).toEqual({ ok: true, verdict: 'contradiction' })
    expect(parseRefcheckerLabel(' neutral - not mentioned')).toEqual({ ok: true, verdict: 'neutral' })
  })
  it('refuses anything else', () => {
    expect(parseRefcheckerLabel('The claim is entailed')).toEqual({
      ok: false,
      problem: 'the reply does not start with Entailment, Neutral or Contradiction (it starts with "the")',
    })
    expect(parseRefcheckerLabel(null)).toEqual({ ok: false, problem: 'the reply was empty' })
  })
})

describe('refchecker (one call per triplet)', () => {
  it('sends each triplet with the reference and classifies the replies', async () => {
    const replies: Record<string, string> = {
      '200': 'Entailment',
      '201': 'Contradiction',
      '202': 'It depends',
    }
    const { ctx, calls } = scriptedCtx((key) => textReply(replies[key.split(':')[1]!]!))
    const out = await METHODS.refchecker.judge(task(triplets, { reference: ref }), ctx)
    expect(calls).toHaveLength(3)
    expect(calls[0]!.request.messages[0]!.content).toContain('("Ibuprofen", "common side effect", "nausea")')
    expect(calls[0]!.request.messages[0]!.content).toContain(ref)
    expect(out.map((o) => [o.status, o.verdict])).toEqual([
      ['ok', 'entailment'],
      ['ok', 'contradiction'],
      ['na', null],
    ])
  })
})

describe('refchecker-batched', () => {
  it('checks all triplets of a response in one call with a three-way enum per claim', async () => {
    const { ctx, calls } = scriptedCtx(() => toolReply({ claim_0: 'entailment', claim_1: 'contradiction' }))
    const out = await METHODS['refchecker-batched'].judge(task(triplets, { reference: ref }), ctx)
    expect(calls.map((c) => c.key)).toEqual(['refchecker-batched:42:0'])
    const props = calls[0]!.request.tool!.parameters.properties as Record<
      string,
      { enum: string[]; description: string }
    >
    expect(props.claim_2!.enum).toEqual(['entailment', 'neutral', 'contradiction'])
    expect(props.claim_2!.description).toBe('("Ibuprofen", "is", "an NSAID")')
    // Fewer verdicts than claims: the call failed validation, so every claim of it is N/A.
    const whole = 'the call failed validation, so all 3 claims in it are N/A (no verdict for claim 2)'
    expect(out.map((o) => [o.targetId, o.status, o.verdict ?? o.problem])).toEqual([
      [200, 'na', whole],
      [201, 'na', whole],
      [202, 'na', whole],
    ])
  })

  it('read per field, keeps the claims the reply gave and makes only the missing one N/A', async () => {
    const { ctx } = scriptedCtx(() => toolReply({ claim_0: 'entailment', claim_1: 'contradiction' }), {
      settings: { naScope: 'field' },
    })
    const out = await METHODS['refchecker-batched'].judge(task(triplets, { reference: ref }), ctx)
    expect(out.map((o) => [o.targetId, o.status, o.verdict ?? o.problem])).toEqual([
      [200, 'ok', 'entailment'],
      [201, 'ok', 'contradiction'],
      [202, 'na', 'no verdict for claim 2'],
    ])
  })
})
