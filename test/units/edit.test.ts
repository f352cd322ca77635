import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LabelWriter, nextUnlabelledTarget } from '../../src/main/labels/labels'
import { openWorkspace } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { ContentWriter } from '../../src/main/store/repos/content'
import { createDataset, datasetStats } from '../../src/main/store/repos/datasets'
import {
  addUnit,
  deleteUnit,
  editUnit,
  mergeUnits,
  reorderUnits,
  restoreUnit,
  splitUnit,
} from '../../src/main/units/edit'
import { unitsPage, unitVersions } from '../../src/main/units/queries'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

function seed() {
  const db = openWorkspace(freshWorkspaceFile(join(tmp(), 'w.factlab')), { skipQuickCheck: true })
  const ds = createDataset(db, { name: 'demo', labelSchema: FAAF_SCHEMA })
  const w = new ContentWriter(db)
  const item = w.insertItem(ds.id, { extId: 'q1', question: 'Who?', reference: 'Ada wrote it in 1843.' }, 0)
  const good = w.insertCandidate(item, { variant: 'answer', text: 'Ada wrote it. In 1843.' })
  const poor = w.insertCandidate(item, { variant: 'poor_answer', text: 'Someone wrote it.' })
  const f1 = w.insertUnit(item, { kind: 'fact', text: 'Ada wrote it' })
  const f2 = w.insertUnit(item, { kind: 'fact', text: 'It was written in 1843' })
  const f3 = w.insertUnit(item, { kind: 'fact', text: 'It is a program' })
  const ana = ensureAnnotator(db, 'ana')
  return { db, ds, item, good, poor, f1, f2, f3, ana, labels: new LabelWriter(db), content: w }
}

const texts = (db: ReturnType<typeof seed>['db'], datasetId: number) =>
  unitsPage(db, datasetId, {}).units.map((u) => u.text)

describe('editing units', () => {
  it('rewrites an unlabelled unit in place', () => {
    const s = seed()
    const r = editUnit(s.db, s.f1, '  Ada Lovelace wrote it ')
    expect(r).toMatchObject({
      versioned: false,
      unit: { id: s.f1, version: 1, text: 'Ada Lovelace wrote it' },
    })
    expect(texts(s.db, s.ds.id)[0]).toBe('Ada Lovelace wrote it')
  })

  it('gives a labelled unit a new version and leaves the old labels on the old text', () => {
    const s = seed()
    const target = s.content.targetId(s.f1, s.good)!
    s.labels.save({ targetId: target, annotatorId: s.ana.id, verdict: 'true' })
    const r = editUnit(s.db, s.f1, 'Ada Lovelace wrote it')
    expect(r.versioned).toBe(true)
    expect(r.unit).toMatchObject({ version: 2, lineageId: s.f1, position: 0, kind: 'fact' })
    expect(r.unit.id).not.toBe(s.f1)

    const versions = unitVersions(s.db, s.f1)
    expect(versions.map((v) => [v.unit.version, v.unit.text])).toEqual([
      [1, 'Ada wrote it'],
      [2, 'Ada Lovelace wrote it'],
    ])
    expect(versions[0]!.labels).toEqual([
      expect.objectContaining({ annotator: 'ana', verdict: 'true', variant: 'answer' }),
    ])
    expect(versions[1]!.labels).toEqual([])
    expect(versions[0]!.unit.supersededBy).toBe(r.unit.id)

    // The review list shows only the new text, in the same place, with its history count.
    const page = unitsPage(s.db, s.ds.id, {})
    expect(page.units[0]).toMatchObject({ id: r.unit.id, versions: 2, labels: 0, locked: false })
    // The new version needs labelling again, in both candidates.
    expect(datasetStats(s.db, s.ds.id).targets).toBe(6)
    expect(nextUnlabelledTarget(s.db, s.ds.id, s.ana.id)).toBe(s.content.targetId(r.unit.id, s.good))
  })

  it('treats a cleared label as labelled, since its history names the old text', () => {
    const s = seed()
    const target = s.content.targetId(s.f2, s.poor)!
    s.labels.save({ targetId: target, annotatorId: s.ana.id, verdict: 'false' })
    s.labels.save({ targetId: target, annotatorId: s.ana.id, verdict: null })
    expect(editUnit(s.db, s.f2, 'Written in 1843').versioned).toBe(true)
  })

  it('refuses to edit a superseded version, an empty text, or a missing unit', () => {
    const s = seed()
    s.labels.save({ targetId: s.content.targetId(s.f1, s.good)!, annotatorId: s.ana.id, verdict: 'true' })
    const next = editUnit(s.db, s.f1, 'Ada Lovelace wrote it').unit
    expect(() => editUnit(s.db, s.f1, 'again')).toThrow(new RegExp(`unit ${next.id}`))
    expect(() => editUnit(s.db, next.id, '   ')).toThrow(/cannot be empty/)
    expect(() => editUnit(s.db, 9999, 'x')).toThrow(/No unit with id 9999/)
    expect(unitVersions(s.db, s.f1)).toHaveLength(2)
  })

  it('counts versions on from the newest one', () => {
    const s = seed()
    let id = s.f1
    for (const text of ['v2', 'v3']) {
      for (const c of [s.good, s.poor])
        s.labels.save({ targetId: s.content.targetId(id, c)!, annotatorId: s.ana.id, verdict: 'true' })
      id = editUnit(s.db, id, text).unit.id
    }
    expect(unitVersions(s.db, s.f1).map((v) => v.unit.version)).toEqual([1, 2, 3])
  })
})

describe('adding, deleting and reordering', () => {
  it('adds a unit after another, first, or at the end', () => {
    const s = seed()
    addUnit(s.db, { itemId: s.item, kind: 'fact', text: 'after one', afterUnitId: s.f1 })
    addUnit(s.db, { itemId: s.item, kind: 'fact', text: 'first', afterUnitId: null })
    addUnit(s.db, { itemId: s.item, kind: 'fact', text: 'last' })
    expect(texts(s.db, s.ds.id)).toEqual([
      'first',
      'Ada wrote it',
      'after one',
      'It was written in 1843',
      'It is a program',
      'last',
    ])
  })

  it('refuses a sentence unit without its candidate or with another item’s candidate', () => {
    const s = seed()
    expect(() => addUnit(s.db, { itemId: s.item, kind: 'sentence', text: 'x' })).toThrow(
      /needs the candidate/,
    )
    const other = s.content.insertItem(s.ds.id, { extId: 'q2', reference: 'r' }, 1)
    const foreign = s.content.insertCandidate(other, { variant: 'answer', text: 't' })
    expect(() =>
      addUnit(s.db, { itemId: s.item, kind: 'sentence', text: 'x', candidateId: foreign }),
    ).toThrow(/does not belong/)
  })

  it('deletes softly: the unit leaves the list, its labels stay, and it can be restored', () => {
    const s = seed()
    const target = s.content.targetId(s.f3, s.good)!
    s.labels.save({ targetId: target, annotatorId: s.ana.id, verdict: 'false' })
    deleteUnit(s.db, s.f3)
    const page = unitsPage(s.db, s.ds.id, {})
    expect(page.units.map((u) => u.id)).not.toContain(s.f3)
    expect(page.deleted.map((u) => [u.id, u.labels])).toEqual([[s.f3, 1]])
    expect(datasetStats(s.db, s.ds.id).labelledBy).toEqual({})
    restoreUnit(s.db, s.f3)
    expect(datasetStats(s.db, s.ds.id).labelledBy).toEqual({ ana: 1 })
  })

  it('gives a restored fact targets in candidates added while it was deleted', () => {
    const s = seed()
    deleteUnit(s.db, s.f3)
    const late = s.content.insertCandidate(s.item, { variant: 'ungrounded_answer', text: 'u' })
    restoreUnit(s.db, s.f3)
    expect(s.content.targetId(s.f3, late)).not.toBeNull()
  })

  it('reorders a list and refuses an order that leaves a unit out', () => {
    const s = seed()
    reorderUnits(s.db, s.item, 'fact', null, [s.f3, s.f1, s.f2])
    expect(texts(s.db, s.ds.id)).toEqual(['It is a program', 'Ada wrote it', 'It was written in 1843'])
    expect(() => reorderUnits(s.db, s.item, 'fact', null, [s.f1, s.f2])).toThrow(/exactly the current units/)
    expect(() => reorderUnits(s.db, s.item, 'fact', null, [s.f1, s.f1, s.f2])).toThrow(/exactly/)
  })
})

describe('splitting and merging', () => {
  it('splits a unit into pieces that keep its place in the list', () => {
    const s = seed()
    const parts = splitUnit(s.db, s.f1, ['Ada wrote', 'it alone'])
    expect(parts.map((u) => u.text)).toEqual(['Ada wrote', 'it alone'])
    expect(texts(s.db, s.ds.id)).toEqual([
      'Ada wrote',
      'it alone',
      'It was written in 1843',
      'It is a program',
    ])
  })

  it('splits a labelled unit by versioning its first piece', () => {
    const s = seed()
    s.labels.save({ targetId: s.content.targetId(s.f2, s.good)!, annotatorId: s.ana.id, verdict: 'true' })
    const [first] = splitUnit(s.db, s.f2, ['Written', 'in 1843'])
    expect(first).toMatchObject({ lineageId: s.f2, version: 2 })
    expect(unitVersions(s.db, s.f2)[0]!.labels).toHaveLength(1)
    expect(() => splitUnit(s.db, first!.id, ['only one'])).toThrow(/at least two/)
    expect(() => splitUnit(s.db, first!.id, ['a', ' '])).toThrow(/Piece 2/)
  })

  it('merges units into the first one by position and hides the rest', () => {
    const s = seed()
    const r = mergeUnits(s.db, [s.f3, s.f2])
    expect(r.unit).toMatchObject({ id: s.f2, text: 'It was written in 1843 It is a program' })
    expect(texts(s.db, s.ds.id)).toEqual(['Ada wrote it', 'It was written in 1843 It is a program'])
    const custom = mergeUnits(s.db, [s.f1, s.f2], 'Ada wrote it in 1843')
    expect(custom.unit.text).toBe('Ada wrote it in 1843')
  })

  it('refuses to merge units from different lists, and changes nothing', () => {
    const s = seed()
    const sentence = addUnit(s.db, {
      itemId: s.item,
      kind: 'sentence',
      text: 'Ada wrote it.',
      candidateId: s.good,
    })
    expect(() => mergeUnits(s.db, [s.f1, sentence.id])).toThrow(/same item, kind and candidate/)
    expect(texts(s.db, s.ds.id)).toEqual([
      'Ada wrote it',
      'It was written in 1843',
      'It is a program',
      'Ada wrote it.',
    ])
  })
})
