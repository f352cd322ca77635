import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { setGold } from '../../src/main/labels/gold'
import { openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('migration 0030: gold history', () => {
  it('keeps every adjudicated decision, including one made before the upgrade', () => {
    const file = `${tmp()}/w.factlab`
    // A workspace at schema 0020 that already holds an adjudicated decision…
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 30) })
    loadDemoIfEmpty(new Workspace(file, old))
    const judge = ensureAnnotator(old, 'judy')
    const target = (old.prepare('SELECT id FROM targets LIMIT 1').get() as { id: number }).id
    // Raw SQL: today's setGold writes columns later migrations add.
    old
      .prepare(
        "INSERT INTO gold (target_id, verdict, source, adjudicator_id, updated_at) VALUES (?, 'false', 'adjudicated', ?, '2026-01-01T00:00:00.000Z')",
      )
      .run(target, judge.id)
    expect(schemaVersion(old)).toBe(20)
    old.close()

    // …is upgraded, and the decision is changed and then cleared.
    const ws = Workspace.open(file)
    expect(schemaVersion(ws.db)).toBeGreaterThanOrEqual(30)
    setGold(ws.db, { targetId: target, verdict: 'true', source: 'adjudicated', note: 'second look' })
    ws.db.prepare('DELETE FROM gold WHERE target_id = ?').run(target)
    const history = ws.db
      .prepare('SELECT verdict, action, note FROM gold_history WHERE target_id = ? ORDER BY id')
      .all(target)
    expect(history).toEqual([
      { verdict: 'false', action: 'set', note: null },
      { verdict: 'true', action: 'set', note: 'second look' },
      { verdict: null, action: 'cleared', note: null },
    ])
    expect(() => ws.db.prepare('DELETE FROM gold_history').run()).toThrow(/append-only/)
    ws.close()
  })
})
