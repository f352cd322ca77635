import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { LATEST_VERSION, openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { listDatasets } from '../../src/main/store/repos/datasets'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

const search = (ws: Workspace, word: string) =>
  ws.db.prepare('SELECT rowid AS id FROM units_fts WHERE units_fts MATCH ? ORDER BY rowid').all(word)

describe('migration 0050: import state', () => {
  it('keeps every existing dataset visible, its history append-only and its search index live', () => {
    const file = `${tmp()}/w.factlab`
    // A workspace at schema 0040 with labels and an adjudicated decision…
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 50) })
    loadDemoIfEmpty(new Workspace(file, old))
    const judge = ensureAnnotator(old, 'judy')
    const target = (old.prepare('SELECT id FROM targets LIMIT 1').get() as { id: number }).id
    // Raw SQL: today's setGold writes columns later migrations add.
    old
      .prepare(
        "INSERT INTO gold (target_id, verdict, source, adjudicator_id, updated_at) VALUES (?, 'false', 'adjudicated', ?, '2026-01-01T00:00:00.000Z')",
      )
      .run(target, judge.id)
    const names = listNames(old)
    expect(schemaVersion(old)).toBe(40)
    old.close()

    // …upgraded: nothing is hidden, nothing of the history can go.
    const ws = Workspace.open(file)
    expect(schemaVersion(ws.db)).toBe(LATEST_VERSION)
    expect(listDatasets(ws.db).map((d) => d.name)).toEqual(names)
    expect(() => ws.db.prepare('DELETE FROM label_history').run()).toThrow(/append-only/)
    expect(() => ws.db.prepare('DELETE FROM gold_history').run()).toThrow(/append-only/)
    ws.db.prepare('DELETE FROM gold WHERE target_id = ?').run(target)
    expect(
      ws.db.prepare('SELECT action FROM gold_history WHERE target_id = ? ORDER BY id').all(target),
    ).toEqual([{ action: 'set' }, { action: 'cleared' }])

    // Rows added to a visible dataset are indexed by the triggers as before.
    const item = (ws.db.prepare('SELECT id FROM items LIMIT 1').get() as { id: number }).id
    const unit = ws.content.insertUnit(item, { kind: 'fact', text: 'Zanzibar exports cloves' })
    expect(search(ws, 'zanzibar')).toEqual([{ id: unit }])
    for (const t of ['items_fts', 'candidates_fts', 'units_fts'])
      ws.db.prepare(`INSERT INTO ${t} (${t}, rank) VALUES ('integrity-check', 1)`).run()
    ws.close()
  })
})

function listNames(db: ReturnType<typeof openWorkspace>): string[] {
  return (db.prepare('SELECT name FROM datasets ORDER BY id').all() as { name: string }[]).map((r) => r.name)
}
