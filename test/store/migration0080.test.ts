import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('migration 0080: annotation project', () => {
  it('counts the labels already on each target, and keeps the count as labels change', () => {
    const file = `${tmp()}/w.factlab`
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 80) })
    loadDemoIfEmpty(new Workspace(file, old))
    const before = old
      .prepare(
        `SELECT t.id, (SELECT COUNT(*) FROM labels l WHERE l.target_id = t.id AND l.verdict IS NOT NULL) AS n
         FROM targets t ORDER BY t.id`,
      )
      .all() as { id: number; n: number }[]
    expect(before.some((r) => r.n > 0)).toBe(true)
    old.close()

    const ws = Workspace.open(file)
    expect(schemaVersion(ws.db)).toBeGreaterThanOrEqual(80)
    expect(ws.db.prepare('SELECT id, labels_n AS n FROM targets ORDER BY id').all()).toEqual(before)
    const { id, n } = before.find((r) => r.n > 0)!
    const who = (
      ws.db
        .prepare('SELECT annotator_id AS a FROM labels WHERE target_id = ? AND verdict IS NOT NULL')
        .get(id) as { a: number }
    ).a
    ws.labels.save({ targetId: id, annotatorId: who, verdict: null })
    expect(ws.db.prepare('SELECT labels_n AS n FROM targets WHERE id = ?').get(id)).toEqual({ n: n - 1 })
    ws.close()
  })

  it('keeps every guidelines version as written', () => {
    const ws = Workspace.open(`${tmp()}/w.factlab`)
    loadDemoIfEmpty(ws)
    const ds = (ws.db.prepare('SELECT id FROM datasets LIMIT 1').get() as { id: number }).id
    ws.db
      .prepare(`INSERT INTO guidelines (dataset_id, version, body, created_at) VALUES (?, 1, 'rules', 'x')`)
      .run(ds)
    expect(() => ws.db.prepare(`UPDATE guidelines SET body = 'other'`).run()).toThrow(/kept as written/)
    ws.close()
  })
})
