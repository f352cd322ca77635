import { describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { deleteUnit, editUnit } from '../../src/main/units/edit'
import { UNIT_REWORDED } from '../../src/shared/contract/annotate'
import { seedWorkspace } from '../annotate/fixture'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

function setup() {
  const s = seedWorkspace(tmp())
  const handlers = buildHandlers(s.ctx)
  const unitOf = (targetId: number) =>
    (s.ws.db.prepare('SELECT unit_id AS u FROM targets WHERE id = ?').get(targetId) as { u: number }).u
  const labelsOn = (targetId: number) =>
    s.ws.db.prepare('SELECT verdict FROM labels WHERE target_id = ?').all(targetId) as { verdict: string }[]
  return { ...s, save: (input: object) => dispatch(handlers, 'annotate.save', input), unitOf, labelsOn }
}

describe('a label given on a screen opened before the unit changed', () => {
  it('is refused on a reworded unit, and nothing is saved', async () => {
    const s = setup()
    const [t0, t1] = s.items[0]!.targets.answer!
    // ben's label makes the next edit a new version: the old wording is kept, hidden.
    expect((await s.save({ targetId: t0, annotatorId: s.ben.id, verdict: 'true' })).ok).toBe(true)
    editUnit(s.ws.db, s.unitOf(t0!), 'Fact 0.1, reworded.')
    const r = await s.save({ targetId: t0, annotatorId: s.ana.id, verdict: 'false' })
    expect(r).toEqual({ ok: false, error: { code: 'conflict', message: UNIT_REWORDED } })
    expect(s.labelsOn(t0!)).toEqual([{ verdict: 'true' }])
    // The other unit of the item is untouched and still takes labels.
    expect((await s.save({ targetId: t1, annotatorId: s.ana.id, verdict: 'true' })).ok).toBe(true)
  })

  it('is refused on a removed unit', async () => {
    const s = setup()
    const t = s.items[1]!.targets.answer![1]!
    deleteUnit(s.ws.db, s.unitOf(t))
    const r = await s.save({ targetId: t, annotatorId: s.ana.id, verdict: 'true' })
    expect(r.ok).toBe(false)
    expect(s.labelsOn(t)).toEqual([])
  })
})
