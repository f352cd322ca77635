import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatFigure, formatPercent, segmentText } from '../../src/renderer/src/views/agreement/format'

describe('agreement figures on screen', () => {
  it('says "not defined" instead of NaN or a blank', () => {
    expect(formatFigure(null)).toBe('not defined')
    expect(formatFigure(Number.NaN)).toBe('not defined')
    expect(formatFigure(0.4567)).toBe('0.46')
    expect(formatPercent(2 / 3)).toBe('66.7%')
    expect(formatPercent(null)).toBe('not defined')
  })
})

describe('segmentText', () => {
  it('marks who pointed at each stretch, including overlaps', () => {
    const segs = segmentText('The bridge opened in 1937.', [
      { start: 4, end: 10, owner: 0 },
      { start: 7, end: 17, owner: 1 },
    ])
    expect(segs.map((s) => [s.text, s.owners])).toEqual([
      ['The ', []],
      ['bri', [0]],
      ['dge', [0, 1]],
      [' opened', [1]],
      [' in 1937.', []],
    ])
  })

  it('clips spans that run past the text', () => {
    expect(segmentText('abc', [{ start: 2, end: 99, owner: 0 }]).map((s) => s.text)).toEqual(['ab', 'c'])
    expect(segmentText('abc', [{ start: 50, end: 99, owner: 0 }]).map((s) => s.owners)).toEqual([[]])
  })

  it('always gives back the whole text, in order', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 60 }),
        fc.array(fc.record({ start: fc.nat(80), end: fc.nat(80), owner: fc.nat(3) }), { maxLength: 6 }),
        (text, marks) => {
          const segs = segmentText(text, marks)
          expect(segs.map((s) => s.text).join('')).toBe(text)
          for (let i = 1; i < segs.length; i++) expect(segs[i]!.start).toBeGreaterThan(segs[i - 1]!.start)
        },
      ),
    )
  })
})
