import { describe, expect, it } from 'vitest'
import { wikiNote } from '../../src/main/export/wikiNote'

const whole = { written: 25, matchingNoFact: 0, labels: 25, annotators: 1, adjudicated: 0, controls: 0 }

describe('the WikiEvalFacts export message', () => {
  it('says every label is in the file when nothing was left out', () => {
    const note = wikiNote(whole)
    expect(note).toContain('this export has 25 gold verdicts')
    expect(note).toContain('every label is in the file')
    expect(note).not.toMatch(/Left out|come back whole/)
  })

  it('names each thing left out, and only those', () => {
    const note = wikiNote({ ...whole, labels: 59, annotators: 3, adjudicated: 2, controls: 4 })
    expect(note).toContain(
      "Left out: who gave which of the workspace's 59 labels by 3 annotators (the file holds one per fact and answer), " +
        'which 2 verdicts are adjudicated decisions and its 4 control items.',
    )
    expect(wikiNote({ ...whole, controls: 1 })).toContain('Left out: its 1 control item.')
  })

  it("counts an annotator's labels apart from the others'", () => {
    const note = wikiNote({ ...whole, annotator: 'Ben', written: 16, labels: 59, annotators: 3 })
    expect(note).toContain("this export has Ben's 16 labels")
    expect(note).toContain("Left out: the other 43 labels of the workspace's 59 by 3 annotators.")
  })

  it('counts the published labels that match no fact, never leaving them out silently', () => {
    expect(wikiNote({ ...whole, matchingNoFact: 2 })).toContain(
      '25 gold verdicts and 2 published labels whose key matches no fact, written as the imported file had them',
    )
  })
})
