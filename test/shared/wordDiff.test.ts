import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { wordDiff } from '../../src/shared/wordDiff'

describe('word diff of a candidate against its reference', () => {
  it('says a candidate is identical to its reference, white space at the ends aside', () => {
    expect(wordDiff('The sky is blue.', ' The sky is blue.\n')).toMatchObject({ identical: true, added: [] })
  })

  it('marks the words the candidate changed, as spans of each text', () => {
    const reference = 'The bridge opened in 1932 after six years of work.'
    const candidate = 'The bridge opened in 1936 after six years of work.'
    const d = wordDiff(reference, candidate)!
    expect(d.identical).toBe(false)
    expect(d.removed.map((s) => reference.slice(s.start, s.end))).toEqual(['1932'])
    expect(d.added.map((s) => candidate.slice(s.start, s.end))).toEqual(['1936'])
    expect(d.shared).toBeGreaterThan(0.9)
  })

  it('gives spans that always lie inside their own text', () => {
    const words = fc.array(fc.constantFrom('a', 'b', 'cat', 'dog', 'the', '1932', '.'), { maxLength: 30 })
    fc.assert(
      fc.property(words, words, (a, b) => {
        const ref = a.join(' ')
        const cand = b.join(' ')
        const d = wordDiff(ref, cand)!
        for (const s of d.removed) expect(s.end).toBeLessThanOrEqual(ref.length)
        for (const s of d.added) expect(s.end).toBeLessThanOrEqual(cand.length)
        // Dropping the added spans from the candidate leaves only words the reference has.
        let kept = ''
        let at = 0
        for (const s of d.added) {
          kept += cand.slice(at, s.start)
          at = s.end
        }
        kept += cand.slice(at)
        for (const w of kept.split(/\s+/).filter(Boolean)) expect(ref.split(/\s+/)).toContain(w)
      }),
    )
  })

  it('diffs two long answers that differ here and there, and gives up on two that differ throughout', () => {
    const words = (n: number, seed: number) =>
      Array.from({ length: n }, (_, i) => `w${(i * 7919 + seed * 104729) % 100003}`).join(' ')
    const reference = words(2000, 1)
    // One word in ten changed: a diff a reader can use.
    const edited = reference
      .split(' ')
      .map((w, i) => (i % 10 === 0 ? `changed${i}` : w))
      .join(' ')
    const d = wordDiff(reference, edited)!
    expect(d.added).toHaveLength(200)
    expect(d.shared).toBeGreaterThan(0.8)
    // Two unrelated answers: no word in common, nothing to mark but everything.
    expect(wordDiff(reference, words(2000, 2))).toBeNull()
  })
})
