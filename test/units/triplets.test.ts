import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { tripletPhrase } from '../../src/main/generate/triplets'
import { LabelWriter } from '../../src/main/labels/labels'
import { openWorkspace } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { ContentWriter } from '../../src/main/store/repos/content'
import { createDataset } from '../../src/main/store/repos/datasets'
import { addUnit, editUnit, mergeUnits, splitTriplet, splitUnit } from '../../src/main/units/edit'
import { unitsPage, unitVersions } from '../../src/main/units/queries'
import type { Triplet } from '../../src/shared/domain'
import { REFCHECKER_SCHEMA } from '../../src/shared/labelSchemas'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

function seed() {
  const db = openWorkspace(freshWorkspaceFile(join(tmp(), 'w.factlab')), { skipQuickCheck: true })
  const ds = createDataset(db, { name: 'refchecker', labelSchema: REFCHECKER_SCHEMA })
  const w = new ContentWriter(db)
  const item = w.insertItem(ds.id, { extId: 'rc-1', reference: 'The lighthouse was completed in 1874.' }, 0)
  const answer = w.insertCandidate(item, { variant: 'claude2', text: 'It was built in 1874 and is red.' })
  const triplet = (t: Triplet) =>
    w.insertUnit(item, { kind: 'triplet', text: t.join(' '), triplet: t, candidateId: answer })
  const built = triplet(['Dunmore lighthouse', 'built in', '1874'])
  const painted = triplet(['Dunmore lighthouse', 'painted', 'red'])
  const fact = w.insertUnit(item, { kind: 'fact', text: 'The lighthouse is old' })
  const ana = ensureAnnotator(db, 'ana')
  const labels = new LabelWriter(db)
  const label = (unitId: number, verdict: string) =>
    labels.save({ targetId: w.targetId(unitId, answer)!, annotatorId: ana.id, verdict })
  return { db, ds, item, answer, built, painted, fact, label }
}

type Seed = ReturnType<typeof seed>

/** Everything a refused change could have touched, to show it touched nothing. */
function snapshot(s: Seed) {
  return {
    units: s.db.prepare('SELECT * FROM units ORDER BY id').all(),
    targets: s.db.prepare('SELECT * FROM targets ORDER BY id').all(),
    labels: s.db.prepare('SELECT * FROM labels ORDER BY target_id').all(),
  }
}

const triplets = (s: Seed) =>
  unitsPage(s.db, s.ds.id, {})
    .units.filter((u) => u.kind === 'triplet')
    .map((u) => [u.text, u.triplet])

describe('editing a triplet by its parts', () => {
  it('makes a new version of a labelled triplet with the new parts; the label stays on the old one', () => {
    const s = seed()
    s.label(s.painted, 'contradiction')
    const r = editUnit(s.db, s.painted, undefined, [' Dunmore lighthouse', 'painted ', '  white '])
    expect(r.versioned).toBe(true)
    expect(r.unit).toMatchObject({
      version: 2,
      lineageId: s.painted,
      kind: 'triplet',
      text: 'Dunmore lighthouse painted white',
      triplet: ['Dunmore lighthouse', 'painted', 'white'],
      origin: 'person',
    })
    const [v1, v2] = unitVersions(s.db, s.painted)
    expect(v1!.unit).toMatchObject({
      text: 'Dunmore lighthouse painted red',
      triplet: ['Dunmore lighthouse', 'painted', 'red'],
      supersededBy: r.unit.id,
    })
    expect(v1!.labels).toEqual([expect.objectContaining({ annotator: 'ana', verdict: 'contradiction' })])
    expect(v2!.labels).toEqual([])
    expect(triplets(s)).toEqual([
      ['Dunmore lighthouse built in 1874', ['Dunmore lighthouse', 'built in', '1874']],
      ['Dunmore lighthouse painted white', ['Dunmore lighthouse', 'painted', 'white']],
    ])
  })

  it('rewrites an unlabelled triplet in place, with the extractor’s rule for its text', () => {
    const s = seed()
    const parts: Triplet = ['Dunmore lighthouse', 'completed in', '1874']
    const r = editUnit(s.db, s.built, undefined, parts)
    expect(r).toMatchObject({ versioned: false, unit: { id: s.built, version: 1, triplet: parts } })
    expect(r.unit.text).toBe(tripletPhrase(parts))
  })

  it('refuses a blank part, a text that would drop the parts, and parts for a fact, changing nothing', () => {
    const s = seed()
    s.label(s.built, 'entailment')
    const before = snapshot(s)
    expect(() => editUnit(s.db, s.built, undefined, ['Dunmore lighthouse', 'built in', '   '])).toThrow(
      'The object of a triplet cannot be empty',
    )
    expect(() => editUnit(s.db, s.built, undefined, ['', 'built in', '1874'])).toThrow(
      'The subject of a triplet cannot be empty',
    )
    expect(() => editUnit(s.db, s.built, 'Dunmore lighthouse was built in 1874')).toThrow(
      /edited by its subject, predicate and object/,
    )
    expect(() => editUnit(s.db, s.fact, undefined, ['a', 'b', 'c'])).toThrow(
      'Only a triplet unit has a subject, predicate and object; this unit is a fact',
    )
    expect(snapshot(s)).toEqual(before)
  })

  it('turns a triplet into free text only when its parts are cleared on purpose', () => {
    const s = seed()
    const r = editUnit(s.db, s.built, 'The lighthouse dates from 1874', null)
    expect(r.unit).toMatchObject({ kind: 'triplet', text: 'The lighthouse dates from 1874', triplet: null })
  })

  it('stores any three non-blank parts trimmed, and refuses any blank one without a change', () => {
    const s = seed()
    const part = fc.oneof(fc.string(), fc.constantFrom('', ' ', '\t', ' x ', 'New York'))
    fc.assert(
      fc.property(fc.tuple(part, part, part), (parts) => {
        const before = snapshot(s)
        const id = unitsPage(s.db, s.ds.id, {}).units.find((u) => u.lineageId === s.built)!.id
        const clean = parts.map((p) => p.trim())
        if (clean.some((p) => p === '')) {
          expect(() => editUnit(s.db, id, undefined, parts)).toThrow(/of a triplet cannot be empty/)
          expect(snapshot(s)).toEqual(before)
        } else {
          const { unit } = editUnit(s.db, id, undefined, parts)
          expect(unit.triplet).toEqual(clean)
          expect(unit.text).toBe(clean.join(' '))
        }
      }),
    )
  })
})

describe('adding, splitting and merging triplets', () => {
  it('adds a triplet from its parts after another one', () => {
    const s = seed()
    addUnit(s.db, {
      itemId: s.item,
      kind: 'triplet',
      candidateId: s.answer,
      triplet: ['Dunmore lighthouse', 'located in', 'Ireland '],
      afterUnitId: s.built,
    })
    expect(triplets(s).map(([text]) => text)).toEqual([
      'Dunmore lighthouse built in 1874',
      'Dunmore lighthouse located in Ireland',
      'Dunmore lighthouse painted red',
    ])
    expect(() =>
      addUnit(s.db, { itemId: s.item, kind: 'fact', text: 'x', triplet: ['a', 'b', 'c'] }),
    ).toThrow(/this unit is a fact/)
  })

  it('splits a compound triplet into triplets that keep its place; the label stays on the old one', () => {
    const s = seed()
    const compound = editUnit(s.db, s.painted, undefined, ['Dunmore lighthouse', 'painted', 'red and white'])
    s.label(compound.unit.id, 'neutral')
    const parts = splitTriplet(s.db, compound.unit.id, [
      ['Dunmore lighthouse', 'painted', 'red'],
      ['Dunmore lighthouse', 'painted', 'white'],
    ])
    expect(parts.map((u) => u.triplet)).toEqual([
      ['Dunmore lighthouse', 'painted', 'red'],
      ['Dunmore lighthouse', 'painted', 'white'],
    ])
    expect(parts[0]).toMatchObject({ lineageId: s.painted, version: 2 })
    expect(unitVersions(s.db, s.painted)[0]!.labels).toHaveLength(1)
    expect(triplets(s).map(([text]) => text)).toEqual([
      'Dunmore lighthouse built in 1874',
      'Dunmore lighthouse painted red',
      'Dunmore lighthouse painted white',
    ])
  })

  it('refuses to split a triplet into plain texts, or into a triplet with a blank part', () => {
    const s = seed()
    const before = snapshot(s)
    expect(() => splitUnit(s.db, s.painted, ['painted red', 'painted white'])).toThrow(
      'A triplet splits into triplets: give a subject, predicate and object for each piece',
    )
    expect(() =>
      splitTriplet(s.db, s.painted, [
        ['Dunmore lighthouse', 'painted', 'red'],
        ['Dunmore lighthouse', '', 'white'],
      ]),
    ).toThrow('Triplet 2 of the split: The predicate of a triplet cannot be empty')
    expect(snapshot(s)).toEqual(before)
  })

  it('refuses to merge triplets, since two claims do not make one, and changes nothing', () => {
    const s = seed()
    const before = snapshot(s)
    expect(() => mergeUnits(s.db, [s.built, s.painted])).toThrow(/Triplets cannot be merged/)
    expect(snapshot(s)).toEqual(before)
  })
})
