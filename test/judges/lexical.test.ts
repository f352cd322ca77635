import { describe, expect, it } from 'vitest'
import { lcsLength, lexicalScores, tokenize, verdictFor } from '../../src/main/judges/lexical'
import { METHODS } from '../../src/main/judges/registry'
import { DCR_SCHEMA, holisticSchema, numericSchema, REFCHECKER_SCHEMA } from '../../src/shared/labelSchemas'
import { scriptedCtx, targets, task } from './scripted'

describe('ROUGE and token overlap, checked by hand', () => {
  it('tokenises case-insensitively on letters and digits', () => {
    expect(tokenize("The cat's 2 mats, THE end!")).toEqual(['the', 'cat', 's', '2', 'mats', 'the', 'end'])
  })

  it('scores two six-word sentences that differ in one word', () => {
    // claim unigrams the×2 cat sat on mat; evidence the×2 cat is on mat → 5 clipped matches of 6.
    const s = lexicalScores('The cat sat on the mat', 'the cat is on the mat')
    expect(s.rouge1.precision).toBeCloseTo(5 / 6)
    expect(s.rouge1.f).toBeCloseTo(5 / 6)
    // bigrams in common: "the cat", "on the", "the mat" → 3 of 5.
    expect(s.rouge2.f).toBeCloseTo(3 / 5)
    // longest common subsequence: the cat on the mat.
    expect(s.rougeL.f).toBeCloseTo(5 / 6)
    // distinct claim tokens the, cat, sat, on, mat → 4 found.
    expect(s.overlap).toBeCloseTo(4 / 5)
  })

  it('separates precision and recall when the texts differ in length and order', () => {
    const s = lexicalScores('police arrested two men', 'two men were arrested by police yesterday')
    expect(s.rouge1).toMatchObject({ precision: 1, recall: 4 / 7 })
    expect(s.rouge1.f).toBeCloseTo(8 / 11)
    expect(s.rouge2.precision).toBeCloseTo(1 / 3)
    expect(s.rouge2.recall).toBeCloseTo(1 / 6)
    expect(s.rouge2.f).toBeCloseTo(2 / 9)
    expect(s.rougeL.precision).toBe(0.5)
    expect(s.rougeL.f).toBeCloseTo(4 / 11)
  })

  it('handles empty texts without dividing by zero', () => {
    const s = lexicalScores('', 'anything')
    expect([s.rouge1.f, s.rouge2.f, s.rougeL.f, s.overlap]).toEqual([0, 0, 0, 0])
    expect(lcsLength([], ['a'])).toBe(0)
  })
})

describe('verdict vocabulary', () => {
  it('follows the unit kind when the dataset schema is unknown', () => {
    expect(verdictFor(0.9, 0.5, 'fact')).toBe('true')
    expect(verdictFor(0.1, 0.5, 'fact')).toBe('false')
    expect(verdictFor(0.1, 0.5, 'triplet')).toBe('neutral')
    expect(verdictFor(0.5, 0.5, 'sentence')).toBe('consistent')
  })
  it('follows the dataset schema when given, never claiming a contradiction', () => {
    expect(verdictFor(0.2, 0.5, 'triplet', REFCHECKER_SCHEMA)).toBe('neutral')
    expect(verdictFor(0.2, 0.5, 'whole', holisticSchema('supported'))).toBe('fail')
    expect(verdictFor(0.9, 0.5, 'whole', DCR_SCHEMA)).toBe('consistent')
    expect(verdictFor(0.5, 0.5, 'whole', numericSchema('sts', 0, 5, 3))).toBe('2.5')
  })
})

describe('lexical method', () => {
  it('checks facts against the candidate and whole candidates against the reference, with no calls', async () => {
    const { ctx, calls } = scriptedCtx(() => ({ error: 'no calls expected' }), {
      settings: { lexicalMetric: 'rouge1', lexicalThreshold: 0.6 },
    })
    const t = [
      ...targets('fact', ['Shakespeare wrote Hamlet', 'Marlowe wrote Faust in Paris']),
      ...targets('whole', ['-'], 900),
    ]
    const out = await METHODS.lexical.judge(
      task(t, { candidate: 'William Shakespeare wrote Hamlet.', reference: 'Hamlet is by Shakespeare.' }),
      ctx,
    )
    expect(calls).toHaveLength(0)
    // fact 1: all three tokens appear in the candidate → precision 1.
    expect(out[0]).toMatchObject({ status: 'ok', verdict: 'true', score: 1 })
    // fact 2: only "wrote" of five tokens → 0.2.
    expect(out[1]).toMatchObject({ verdict: 'false', score: 0.2 })
    // whole: candidate {william shakespeare wrote hamlet} vs {hamlet is by shakespeare}: 2 matches, P 2/4, R 2/4.
    expect(out[2]!.score).toBeCloseTo(0.5)
    expect(out[2]!.verdict).toBe('fail')
    expect(out[2]!.detail).toMatchObject({
      metric: 'rouge1',
      threshold: 0.6,
      rouge1: { p: 0.5, r: 0.5, f: 0.5 },
    })
  })
})
