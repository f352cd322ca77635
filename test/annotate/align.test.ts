import { describe, expect, it } from 'vitest'
import { alignUnit, contentTokens, makeAligner, splitSentences } from '../../src/shared/align'

const ARTICLE =
  'The Eiffel Tower is a wrought-iron lattice tower in Paris. It was designed by the company of Gustave Eiffel. ' +
  'Construction finished in 1889 for the World Fair.  Today it is the most visited paid monument in the world.'

describe('lexical alignment', () => {
  it('splits a text into trimmed sentence spans that cover every sentence', () => {
    const spans = splitSentences(ARTICLE)
    expect(spans).toHaveLength(4)
    expect(ARTICLE.slice(spans[2]!.start, spans[2]!.end)).toBe(
      'Construction finished in 1889 for the World Fair.',
    )
  })

  it('points a fact at the sentence it comes from', () => {
    const span = alignUnit(ARTICLE, 'The tower was completed in 1889.')
    expect(span).not.toBeNull()
    expect(ARTICLE.slice(span!.start, span!.end)).toContain('1889')
    expect(ARTICLE.slice(span!.start, span!.end)).not.toContain('Gustave')
  })

  it('matches plural and singular forms', () => {
    const span = alignUnit(ARTICLE, 'Gustave Eiffel companies designed it')
    expect(ARTICLE.slice(span!.start, span!.end)).toContain('designed by the company')
  })

  it('returns null when the unit shares no content word with the text', () => {
    expect(alignUnit(ARTICLE, 'Bananas are yellow')).toBeNull()
    expect(alignUnit(ARTICLE, 'the of and')).toBeNull()
    expect(alignUnit('', 'anything')).toBeNull()
  })

  it('reports the share of the unit found in the passage', () => {
    const align = makeAligner(ARTICLE)
    expect(align('Eiffel Tower Paris')!.score).toBe(1)
    expect(align('Eiffel Tower Berlin')!.score).toBeCloseTo(2 / 3)
  })

  it('ignores stopwords and case', () => {
    expect(contentTokens('The Tower OF Paris')).toEqual(['tower', 'pari'])
  })
})
