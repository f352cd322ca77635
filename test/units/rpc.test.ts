import { describe, expect, it } from 'vitest'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { DCR_SCHEMA } from '../../src/shared/labelSchemas'
import { testApps } from '../helpers/app'

const openApp = testApps()

function seed() {
  const { ctx, call } = openApp()
  const { db, content, labels } = ctx.workspace
  const ds = createDataset(db, { name: 'dcr', labelSchema: DCR_SCHEMA })
  const items = [0, 1, 2].map((i) =>
    content.insertItem(ds.id, { extId: `a${i}`, reference: `Article ${i}.` }, i),
  )
  const cand = content.insertCandidate(items[0]!, { variant: 'sys', text: 'First claim. Second claim.' })
  return { ctx, ds, items, cand, call, labels, annotator: ensureAnnotator(db, 'ana') }
}

describe('units calls', () => {
  it('splits an answer into sentences, lists them, and versions a labelled one on edit', async () => {
    const s = seed()
    expect(await s.call('units.splitSentences', { candidateId: s.cand })).toEqual({
      ok: true,
      value: { candidates: 1, units: 2 },
    })
    const page = await s.call('units.list', { datasetId: s.ds.id })
    if (!page.ok) throw new Error(page.error.message)
    const list = page.value as {
      units: { id: number; text: string }[]
      total: number
      nextItemId: number | null
    }
    expect(list.units.map((u) => u.text)).toEqual(['First claim.', 'Second claim.'])
    expect(list).toMatchObject({ total: 3, nextItemId: s.items[1] })

    const unitId = list.units[0]!.id
    const target = s.ctx.workspace.content.targetId(unitId, s.cand)!
    s.labels.save({ targetId: target, annotatorId: s.annotator.id, verdict: 'consistent' })
    const edited = await s.call('units.edit', { unitId, text: 'The first claim.' })
    expect(edited).toMatchObject({
      ok: true,
      value: { versioned: true, unit: { version: 2, lineageId: unitId } },
    })
  })

  it('opens an item by its place in the dataset', async () => {
    const s = seed()
    const r = await s.call('units.list', { datasetId: s.ds.id, index: 2 })
    expect(r).toMatchObject({ ok: true, value: { index: 2, item: { extId: 'a2' }, nextItemId: null } })
  })

  it('answers bad requests with a code and a readable reason', async () => {
    const s = seed()
    expect(await s.call('units.edit', { unitId: 999, text: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: 'No unit with id 999' },
    })
    expect(await s.call('units.split', { unitId: 1, texts: ['only one'] })).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    })
    expect(await s.call('units.list', { datasetId: s.ds.id, itemId: 12345 })).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: `Item 12345 is not in dataset ${s.ds.id}` },
    })
    expect(
      await s.call('units.add', { itemId: s.items[0], kind: 'sentence', text: 'Orphan sentence.' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: 'A sentence unit needs the candidate it comes from' },
    })
  })

  it('edits a triplet by its parts, and refuses a blank part by name without changing anything', async () => {
    const s = seed()
    const { db, content } = s.ctx.workspace
    const unitId = content.insertUnit(s.items[0]!, {
      kind: 'triplet',
      text: 'Quellin number of players four',
      triplet: ['Quellin', 'number of players', 'four'],
      candidateId: s.cand,
    })
    const before = db.prepare('SELECT * FROM units ORDER BY id').all()
    const blank = await s.call('units.edit', { unitId, triplet: ['Quellin', 'number of players', '  '] })
    expect(blank).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    if (!blank.ok) expect(blank.error.message).toContain('The object of a triplet cannot be empty')
    expect(await s.call('units.edit', { unitId })).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining('its subject, predicate and object') },
    })
    expect(db.prepare('SELECT * FROM units ORDER BY id').all()).toEqual(before)

    expect(
      await s.call('units.edit', { unitId, triplet: ['Quellin', 'number of players', ' two '] }),
    ).toMatchObject({
      ok: true,
      value: {
        versioned: false,
        unit: { text: 'Quellin number of players two', triplet: ['Quellin', 'number of players', 'two'] },
      },
    })
    expect(
      await s.call('units.split', { unitId, texts: ['Quellin has players', 'Quellin is a game'] }),
    ).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringMatching(/splits into triplets/) },
    })
  })
})
