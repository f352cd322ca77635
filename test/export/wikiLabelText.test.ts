import { describe, expect, it } from 'vitest'
import { labelsMatchingNoFact, labelText } from '../../src/main/export/wikiLabelText'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'

const PUBLISHED = 'Not clear from the given passage'

describe('label text in a WikiEvalFacts export', () => {
  it("writes a label a person gave here in the release's spelling, and the usual one without a release", () => {
    expect(labelText(FAAF_SCHEMA, {}, { not_clear: PUBLISHED })('not_clear')).toBe(PUBLISHED)
    expect(labelText(FAAF_SCHEMA, { not_clear: 'not clear' }, { not_clear: PUBLISHED })('not_clear')).toBe(
      'not clear',
    )
    expect(labelText(FAAF_SCHEMA, {}, {})('not_clear')).toBe('Not clear')
    expect(labelText(FAAF_SCHEMA, {}, { not_clear: PUBLISHED })('true')).toBe('True')
  })

  it("gives back a published label that matched no fact only in the gold's or its own source's export", () => {
    const meta = {
      fact_labels_matching_no_fact: [
        { variant: 'answer', annotator: 'wikievalfacts', fact: 'F x.', label: 'False' },
      ],
    }
    expect(labelsMatchingNoFact(meta, 'answer', null, new Set())).toEqual([['F x.', 'False']])
    expect(labelsMatchingNoFact(meta, 'answer', 'wikievalfacts', new Set())).toEqual([['F x.', 'False']])
    expect(labelsMatchingNoFact(meta, 'answer', 'Ben', new Set())).toEqual([])
    expect(labelsMatchingNoFact(meta, 'poor_answer', null, new Set())).toEqual([])
    // A fact added since, labelled in the same dict, takes its place.
    expect(labelsMatchingNoFact(meta, 'answer', null, new Set(['fx']))).toEqual([])
  })
})
