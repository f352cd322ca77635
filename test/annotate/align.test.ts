import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type AlignedSpan,
  alignUnit,
  contentTokens,
  makeAligner,
  splitSentences,
} from '../../src/shared/align'

/** The alignment as first written: every window's tokens rebuilt on each query. */
function alignFromScratch(text: string, unit: string): AlignedSpan | null {
  const passages = splitSentences(text).map((s) => ({
    ...s,
    tokens: new Set(contentTokens(text.slice(s.start, s.end))),
  }))
  const query = new Set(contentTokens(unit))
  if (query.size === 0) return null
  let best: AlignedSpan | null = null
  const consider = (start: number, end: number, tokens: Set<string>, size: number) => {
    let hit = 0
    for (const t of query) if (tokens.has(t)) hit++
    if (hit === 0) return
    const score = hit / query.size - 0.001 * size
    if (!best || score > best.score + 1e-9) best = { start, end, score }
  }
  for (let i = 0; i < passages.length; i++) {
    const p = passages[i]!
    consider(p.start, p.end, p.tokens, p.tokens.size)
    const q = passages[i + 1]
    if (q) {
      const merged = new Set([...p.tokens, ...q.tokens])
      consider(p.start, q.end, merged, merged.size + 150)
    }
  }
  if (!best) return null
  const found: AlignedSpan = best
  let hit = 0
  const tokens = new Set(contentTokens(text.slice(found.start, found.end)))
  for (const t of query) if (tokens.has(t)) hit++
  return { start: found.start, end: found.end, score: hit / query.size }
}

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

  it('gives every unit the passage a from-scratch alignment gives, asked once or again', () => {
    const word = fc.constantFrom(
      'tower',
      'Paris',
      'iron',
      '1889',
      'the',
      'of',
      'company',
      'companies',
      'fair',
      'x',
    )
    const sentence = fc
      .array(word, { minLength: 1, maxLength: 8 })
      .chain((ws) => fc.constantFrom('. ', '! ', '.\n', ', ').map((end) => `${ws.join(' ')}${end}`))
    const text = fc.array(sentence, { maxLength: 12 }).map((ss) => ss.join(''))
    const unit = fc.array(word, { maxLength: 6 }).map((ws) => ws.join(' '))
    fc.assert(
      fc.property(text, fc.array(unit, { minLength: 1, maxLength: 6 }), (t, units) => {
        const align = makeAligner(t)
        for (const u of [...units, ...units]) expect(align(u)).toEqual(alignFromScratch(t, u))
      }),
    )
  })
})
