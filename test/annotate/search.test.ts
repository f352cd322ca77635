import { describe, expect, it } from 'vitest'
import { queryItems } from '../../src/main/annotate/datasets'
import { asIndexed, ftsQuery, MAX_TERMS } from '../../src/main/annotate/search'
import { editUnit } from '../../src/main/units/edit'
import { tmpDirs } from '../helpers/tmp'
import { seedWorkspace } from './fixture'

const tmp = tmpDirs()

describe('search words', () => {
  it('match every word, each as the start of a word, quoted so nothing typed is FTS syntax', () => {
    expect(ftsQuery('  Volc  ')).toBe('"volc"*')
    expect(ftsQuery('lava OR "flows')).toBe('"lava"* AND "or" AND "flows"*')
    expect(ftsQuery('NEAR(a b)')).toBe('"near"* AND "a" AND "b"')
  })

  it('stand for every indexed word that contains them, from three characters on', () => {
    const vocabulary = ['volcano', 'volcanic', 'lava', 'cafe']
    const containing = (piece: string) => vocabulary.filter((w) => w.includes(piece))
    expect(ftsQuery('olcan', containing)).toBe('("volcano" OR "volcanic")')
    expect(ftsQuery('lava AFÉ', containing)).toBe('"lava" AND "cafe"')
    // Shorter words stay whole words; a piece found nowhere matches nothing.
    expect(ftsQuery('la', containing)).toBe('"la"')
    expect(ftsQuery('lava zzz', containing)).toBe('')
    // Past MAX_TERMS words the piece keeps to word starts.
    const many = Array.from({ length: MAX_TERMS + 1 }, (_, i) => `ab${i}cd`)
    expect(ftsQuery('abc', () => many)).toBe('"abc"*')
    expect(asIndexed('Ça Été')).toBe('ca ete')
  })

  it('leave out punctuation, and have no query when nothing else is typed', () => {
    expect(ftsQuery('100%')).toBe('"100"*')
    expect(ftsQuery('?!')).toBeNull()
    expect(ftsQuery('')).toBeNull()
  })
})

describe('items search', () => {
  function setup() {
    const s = seedWorkspace(tmp())
    const search = (text: string) =>
      queryItems(s.ws.db, {
        datasetId: s.ds.id,
        annotatorId: s.ana.id,
        filter: { status: 'all', variant: null, search: text },
        offset: 0,
        limit: 50,
      })
    const ids = (text: string) => search(text).rows.map((r) => r.extId)
    return { ...s, search, ids }
  }

  it('finds items by id, question, reference, candidate or unit text, by word starts', () => {
    const s = setup()
    expect(s.ids('volc')).toEqual(['q2'])
    expect(s.ids('Question 1')).toEqual(['q1'])
    expect(s.ids('q0')).toEqual(['q0'])
    expect(s.ids('poor 2')).toEqual(['q2'])
    expect(s.ids('fact')).toEqual(['q0', 'q1', 'q2'])
    expect(s.ids('rivers volcanoes')).toEqual([])
    expect(s.search('rivers').total).toBe(2)
  })

  it('finds a piece from inside a word, and follows edits to the texts', () => {
    const s = setup()
    expect(s.ids('olcan')).toEqual(['q2'])
    expect(s.ids('ivers')).toEqual(s.ids('rivers'))
    expect(s.ids('xylo')).toEqual([])
    const unit = s.ws.db.prepare("SELECT id FROM units WHERE text = 'Fact 1.2'").get() as { id: number }
    editUnit(s.ws.db, unit.id, 'A xylophone plays')
    expect(s.ids('lophon')).toEqual(['q1'])
    expect(s.ids('xylo')).toEqual(['q1'])
  })

  it('matches short words whole only, and accents either way', () => {
    const s = setup()
    expect(s.ids('q')).toEqual([])
    const unit = s.ws.db.prepare("SELECT id FROM units WHERE text = 'Fact 1.2'").get() as { id: number }
    editUnit(s.ws.db, unit.id, 'Un café au lait')
    expect(s.ids('cafe')).toEqual(['q1'])
    expect(s.ids('au')).toEqual(['q1'])
  })

  it('follows unit edits: the old text of an edited unit no longer finds its item', () => {
    const s = setup()
    const target = s.items[0]!.targets.answer![0]!
    s.ws.labels.save({ targetId: target, annotatorId: s.ana.id, verdict: 'true' })
    const unit = s.ws.db.prepare('SELECT unit_id AS id FROM targets WHERE id = ?').get(target) as {
      id: number
    }
    editUnit(s.ws.db, unit.id, 'Granite is igneous')
    expect(s.ids('granite')).toEqual(['q0'])
    expect(s.ids('0.1')).toEqual([])
    expect(s.ids('0.2')).toEqual(['q0'])
  })

  it('treats punctuation-only text as plain text in ids and questions', () => {
    const s = setup()
    expect(s.ids('?')).toEqual(['q0', 'q1', 'q2'])
    expect(s.ids('%')).toEqual([])
  })
})
