import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { openWorkspace } from '../../src/main/store/connection'
import { ContentWriter } from '../../src/main/store/repos/content'
import { createDataset } from '../../src/main/store/repos/datasets'
import { editUnit } from '../../src/main/units/edit'
import { createSentenceUnits, createSentenceUnitsForDataset } from '../../src/main/units/sentences'
import { splitSentences } from '../../src/main/units/splitter'
import { DCR_SCHEMA } from '../../src/shared/labelSchemas'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('splitSentences', () => {
  it('splits on sentence ends and keeps offsets into the original text', () => {
    const text = '  The bridge opened in 1937. Was it red?  Yes!\n\nA new paragraph'
    const parts = splitSentences(text)
    expect(parts.map((p) => p.text)).toEqual([
      'The bridge opened in 1937.',
      'Was it red?',
      'Yes!',
      'A new paragraph',
    ])
    for (const p of parts) expect(text.slice(p.start, p.end)).toBe(p.text)
  })

  it('does not break after titles, initials or decimals', () => {
    expect(
      splitSentences('Dr. Smith met J. K. Rowling at 3.5 p.m. on Monday. They talked.').map((p) => p.text),
    ).toEqual(['Dr. Smith met J. K. Rowling at 3.5 p.m. on Monday.', 'They talked.'])
  })

  it('still breaks at a line end after an abbreviation', () => {
    expect(splitSentences('Ask Dr.\nNobody came.').map((p) => p.text)).toEqual(['Ask Dr.', 'Nobody came.'])
  })

  it('returns nothing for blank text', () => {
    expect(splitSentences(' \n\t ')).toEqual([])
  })

  it('covers every non-blank character exactly once, in order', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const parts = splitSentences(text)
        let last = 0
        for (const p of parts) {
          expect(p.start).toBeGreaterThanOrEqual(last)
          expect(text.slice(p.start, p.end)).toBe(p.text)
          expect(p.text.trim()).toBe(p.text)
          expect(text.slice(last, p.start).trim()).toBe('')
          last = p.end
        }
        expect(text.slice(last).trim()).toBe('')
      }),
    )
  })
})

describe('createSentenceUnits', () => {
  function seed() {
    const db = openWorkspace(freshWorkspaceFile(join(tmp(), 'w.factlab')), { skipQuickCheck: true })
    const ds = createDataset(db, { name: 'dcr', labelSchema: DCR_SCHEMA })
    const w = new ContentWriter(db)
    const item = w.insertItem(ds.id, { extId: 'a1', reference: 'An article.' }, 0)
    const c1 = w.insertCandidate(item, { variant: 'sys1', text: 'One sentence. Two sentences.' })
    const c2 = w.insertCandidate(item, { variant: 'sys2', text: 'Only one.' })
    return { db, ds, c1, c2 }
  }

  it('makes one sentence unit with its own target per sentence, marked as from the splitter', () => {
    const { db, c1 } = seed()
    const r = createSentenceUnits(db, c1)
    expect(r.created.map((u) => [u.text, u.kind, u.origin, u.candidateId])).toEqual([
      ['One sentence.', 'sentence', 'splitter', c1],
      ['Two sentences.', 'sentence', 'splitter', c1],
    ])
    const targets = db.prepare('SELECT COUNT(*) AS n FROM targets WHERE candidate_id = ?').get(c1) as {
      n: number
    }
    expect(targets.n).toBe(2)
  })

  it('leaves a candidate that already has sentence units (and a person’s edits) alone', () => {
    const { db, c1 } = seed()
    const first = createSentenceUnits(db, c1)
    editUnit(db, first.units[0]!.id, 'One edited sentence.')
    const again = createSentenceUnits(db, c1)
    expect(again.created).toEqual([])
    expect(again.units.map((u) => u.text)).toEqual(['One edited sentence.', 'Two sentences.'])
  })

  it('splits a whole dataset, optionally one variant', () => {
    const { db, ds } = seed()
    expect(createSentenceUnitsForDataset(db, ds.id, 'sys2')).toEqual({ candidates: 1, units: 1 })
    expect(createSentenceUnitsForDataset(db, ds.id)).toEqual({ candidates: 1, units: 2 })
    expect(() => createSentenceUnits(db, 999)).toThrow(/No candidate with id 999/)
  })
})
