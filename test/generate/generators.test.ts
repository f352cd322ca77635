import { describe, expect, it } from 'vitest'
import { GENERATORS } from '../../src/main/generate'
import { cleanTexts } from '../../src/main/generate/facts'
import type { GenerateTask } from '../../src/main/judges/types'
import { scriptedCtx, textReply, toolReply } from '../judges/scripted'

const item = (question: string | null = 'What are the side effects of ibuprofen?') => ({
  id: 9,
  question,
  reference: 'Common side effects of ibuprofen are headaches, dizziness and nausea.',
  metadata: {},
})
const withCandidate = (text: string): GenerateTask => ({
  item: item(),
  candidate: { id: 31, variant: 'answer', text },
})

describe('facts generator', () => {
  it('asks once per item with question and reference, and keeps clean distinct facts', async () => {
    const { ctx, calls } = scriptedCtx(() =>
      toolReply({
        facts: [
          'Ibuprofen can cause headaches.',
          '  ',
          'ibuprofen can cause  headaches.',
          'Ibuprofen can cause nausea.',
        ],
      }),
    )
    const out = await GENERATORS.facts.generate({ item: item() }, ctx)
    expect(calls.map((c) => c.key)).toEqual(['facts:9'])
    expect(calls[0]!.request.messages[0]!.content).toContain('What are the side effects of ibuprofen?')
    expect(calls[0]!.request.messages[0]!.content).toContain('dizziness and nausea')
    expect(out).toEqual({
      units: [
        { kind: 'fact', text: 'Ibuprofen can cause headaches.' },
        { kind: 'fact', text: 'Ibuprofen can cause nausea.' },
      ],
    })
  })

  it('reports a reply it cannot use instead of storing anything', async () => {
    const wrong = scriptedCtx(() => toolReply({ facts: 'Ibuprofen can cause nausea.' }))
    expect((await GENERATORS.facts.generate({ item: item() }, wrong.ctx)).problem).toMatch(
      /do not match the schema/,
    )
    const none = scriptedCtx(() => toolReply({ facts: ['', ' '] }))
    expect(await GENERATORS.facts.generate({ item: item() }, none.ctx)).toEqual({
      problem: 'the model returned no facts',
    })
    const prose = scriptedCtx(() => textReply('1. Ibuprofen can cause nausea.'))
    expect((await GENERATORS.facts.generate({ item: item() }, prose.ctx)).units).toBeUndefined()
  })

  it('cleanTexts collapses spacing and ignores case for repeats', () => {
    expect(cleanTexts(['A  b', 'a b', 'C'])).toEqual(['A b', 'C'])
  })
})

describe('questions generator', () => {
  it('writes a question for an item without one, from the reference only', async () => {
    const { ctx, calls } = scriptedCtx(() =>
      toolReply({ question: ' What side effects does ibuprofen commonly have? ' }),
    )
    const out = await GENERATORS.questions.generate({ item: item(null) }, ctx)
    expect(out).toEqual({ question: 'What side effects does ibuprofen commonly have?' })
    expect(calls[0]!.key).toBe('questions:9')
    expect(calls[0]!.request.messages[0]!.content).toContain('dizziness and nausea')
  })

  it('keeps an existing question and makes no call', async () => {
    const { ctx, calls } = scriptedCtx(() => toolReply({ question: 'x' }))
    expect(await GENERATORS.questions.generate({ item: item() }, ctx)).toEqual({
      problem: 'the item already has a question; it was kept',
    })
    expect(calls).toHaveLength(0)
  })
})

describe('triplets generator', () => {
  it('extracts per candidate and keeps the structured triplet beside a readable text', async () => {
    const { ctx, calls } = scriptedCtx(() =>
      toolReply({
        triplets: [
          { subject: 'Ibuprofen', predicate: 'has side effect', object: 'nausea' },
          { subject: 'ibuprofen', predicate: 'has side effect', object: 'Nausea' },
          { subject: 'Ibuprofen', predicate: '', object: 'giddiness' },
        ],
      }),
    )
    const out = await GENERATORS.triplets.generate(
      withCandidate('Ibuprofen may cause nausea and giddiness.'),
      ctx,
    )
    expect(calls.map((c) => c.key)).toEqual(['triplets:31'])
    expect(calls[0]!.request.messages[0]!.content).toContain('Ibuprofen may cause nausea and giddiness.')
    expect(out).toEqual({
      units: [
        {
          kind: 'triplet',
          text: 'Ibuprofen has side effect nausea',
          triplet: ['Ibuprofen', 'has side effect', 'nausea'],
        },
      ],
    })
  })

  it('needs a candidate', async () => {
    const { ctx } = scriptedCtx(() => toolReply({ triplets: [] }))
    expect(await GENERATORS.triplets.generate({ item: item() }, ctx)).toEqual({
      problem: 'triplet extraction needs a candidate',
    })
  })
})

describe('sentences generator', () => {
  it('splits deterministically without calling a model, keeping abbreviations inside sentences', async () => {
    const { ctx, calls } = scriptedCtx(() => ({ error: 'unexpected' }))
    const out = await GENERATORS.sentences.generate(
      withCandidate('Dr. Smith arrived on Monday. He left early!   Was it raining? Yes.'),
      ctx,
    )
    expect(calls).toHaveLength(0)
    expect(out.units).toEqual(
      ['Dr. Smith arrived on Monday.', 'He left early!', 'Was it raining?', 'Yes.'].map((text) => ({
        kind: 'sentence',
        text,
      })),
    )
  })

  it('reports an empty candidate instead of producing no units silently', async () => {
    const { ctx } = scriptedCtx(() => ({ error: 'unexpected' }))
    expect(await GENERATORS.sentences.generate(withCandidate('   '), ctx)).toEqual({
      problem: 'the candidate is empty',
    })
  })
})
