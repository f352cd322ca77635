import { describe, expect, it } from 'vitest'
import { openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('migration 0110: blind adjudication', () => {
  it('keeps earlier decisions as third-party ones and records a self-adjudication in gold and its history', () => {
    const file = `${tmp()}/w.factlab`
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 110) })
    old.exec(`
      INSERT INTO datasets (id, name, label_schema, created_at) VALUES (1, 'd', '{"type":"faaf","values":["true","false"]}', 'x');
      INSERT INTO annotators (id, name, created_at) VALUES (1, 'ana', 'x');
      INSERT INTO items (id, dataset_id, ext_id, position, reference) VALUES (1, 1, 'i', 0, 'ref');
      INSERT INTO candidates (id, item_id, variant, text) VALUES (1, 1, 'a', 'cand');
      INSERT INTO units (id, item_id, kind, position, text, lineage_id, version, origin, created_at)
        VALUES (1, 1, 'fact', 0, 'f', 1, 1, 'manual', 'x');
      INSERT INTO targets (id, dataset_id, item_id, unit_id, candidate_id) VALUES (1, 1, 1, 1, 1);`)
    const targetId = (old.prepare('SELECT id FROM targets LIMIT 1').get() as { id: number }).id
    old
      .prepare(
        "INSERT INTO gold (target_id, verdict, source, adjudicator_id, updated_at) VALUES (?, 'true', 'adjudicated', 1, 'x')",
      )
      .run(targetId)
    old.close()

    const db = openWorkspace(file)
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(110)
    expect(db.prepare('SELECT adjudicator_labelled AS self FROM gold').get()).toEqual({ self: 0 })
    db.prepare("UPDATE gold SET verdict = 'false', adjudicator_labelled = 1, updated_at = 'y'").run()
    expect(
      db.prepare('SELECT verdict, adjudicator_labelled AS self FROM gold_history ORDER BY id').all(),
    ).toEqual([
      { verdict: 'true', self: 0 },
      { verdict: 'false', self: 1 },
    ])
    db.prepare("INSERT INTO adjudicator_stepouts (dataset_id, annotator_id, at) VALUES (1, 1, 'x')").run()
    expect(() =>
      db.prepare("INSERT INTO adjudicator_stepouts (dataset_id, annotator_id, at) VALUES (1, 1, 'y')").run(),
    ).toThrow(/UNIQUE/)
    db.close()
  })
})
