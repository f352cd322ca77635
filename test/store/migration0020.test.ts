import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { datasetSummary, queryItems } from '../../src/main/annotate/datasets'
import { LabelWriter } from '../../src/main/labels/labels'
import { LATEST_VERSION, migrate, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { ContentWriter } from '../../src/main/store/repos/content'
import { createDataset, datasetStats, recountDatasetStats } from '../../src/main/store/repos/datasets'
import { editUnit } from '../../src/main/units/edit'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'

/** A workspace at schema 0010 with labels, a dispute, gold, an edited and a deleted unit. */
function oldWorkspace() {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  migrate(
    db,
    MIGRATIONS.filter((m) => m.version <= 10),
  )
  const ds = createDataset(db, { name: 'wiki', labelSchema: FAAF_SCHEMA })
  const w = new ContentWriter(db)
  const labels = new LabelWriter(db)
  const [ana, ben] = [ensureAnnotator(db, 'ana').id, ensureAnnotator(db, 'ben').id]
  const targets: number[] = []
  for (let i = 0; i < 4; i++) {
    const item = w.insertItem(
      ds.id,
      { extId: `q${i}`, question: `Question ${i}?`, reference: 'Lava flows.' },
      i,
    )
    const c = w.insertCandidate(item, {
      variant: 'answer',
      text: i === 3 ? 'Basalt cools fast.' : 'An answer.',
    })
    for (let f = 0; f < 2; f++) {
      const u = w.insertUnit(item, { kind: 'fact', text: `fact ${f} of ${i}` })
      targets.push(w.targetId(u, c)!)
    }
  }
  const [t0, t1, t2, t3, t4] = targets as [number, number, number, number, number]
  labels.save({ targetId: t0, annotatorId: ana, verdict: 'true' })
  labels.save({ targetId: t0, annotatorId: ben, verdict: 'false' }) // disputed
  labels.save({ targetId: t1, annotatorId: ana, verdict: 'true' })
  labels.save({ targetId: t1, annotatorId: ben, verdict: 'false' })
  db.prepare(
    "INSERT INTO gold (target_id, verdict, source, updated_at) VALUES (?, 'true', 'adjudicated', 'x')",
  ).run(t1) // settled
  labels.save({ targetId: t2, annotatorId: ana, verdict: 'true' })
  labels.save({ targetId: t2, annotatorId: ana, verdict: null }) // cleared
  labels.save({ targetId: t3, annotatorId: ana, verdict: 'false' })
  labels.save({ targetId: t4, annotatorId: ana, verdict: 'true' })
  // Fact 1 of item 1 (labelled) is edited: its label stays with the old version.
  const unitOf = (t: number) =>
    (db.prepare('SELECT unit_id AS u FROM targets WHERE id = ?').get(t) as { u: number }).u
  editUnit(db, unitOf(t3), 'fact 1 of 1, reworded with obsidian')
  db.prepare("UPDATE units SET deleted_at = 'x' WHERE id = ?").run(unitOf(t4))
  return { db, ds, ana, ben }
}

describe('migration 0020 (progress counters, disputes, search index)', () => {
  it('fills counters, disputes and the search index from a workspace that already holds data', () => {
    const { db, ds, ana } = oldWorkspace()
    migrate(db)
    expect(schemaVersion(db)).toBe(LATEST_VERSION)
    expect(db.pragma('foreign_key_check')).toEqual([])

    const stats = datasetStats(db, ds.id)
    expect(stats).toEqual(recountDatasetStats(db, ds.id))
    // 4 items, 8 facts, one deleted: 7 current units and targets; ana: t0, t1 (t3 was edited away).
    expect(stats).toMatchObject({
      items: 4,
      candidates: 4,
      units: 7,
      targets: 7,
      labelledBy: { ana: 2, ben: 2 },
    })
    expect(datasetSummary(db, ds.id)).toMatchObject({ disputed: 1, variants: ['answer'] })

    const search = (text: string) =>
      queryItems(db, {
        datasetId: ds.id,
        annotatorId: ana,
        filter: { status: 'all', variant: null, search: text },
        offset: 0,
        limit: 50,
      }).rows.map((r) => r.extId)
    expect(search('basalt')).toEqual(['q3'])
    expect(search('obsid')).toEqual(['q1'])
    expect(search('question 2')).toEqual(['q2'])
  })

  it('keeps them up to date for writes made after the upgrade', () => {
    const { db, ds, ben } = oldWorkspace()
    migrate(db)
    const t = (db.prepare('SELECT id FROM targets ORDER BY id DESC LIMIT 1').get() as { id: number }).id
    new LabelWriter(db).save({ targetId: t, annotatorId: ben, verdict: 'true' })
    expect(datasetStats(db, ds.id)).toEqual(recountDatasetStats(db, ds.id))
    expect(datasetStats(db, ds.id).labelledBy).toEqual({ ana: 2, ben: 3 })
  })
})
