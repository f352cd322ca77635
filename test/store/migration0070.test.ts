import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { LabelWriter, labelHistory } from '../../src/main/labels/labels'
import { openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('migration 0070: merged label history keeps the original action', () => {
  it('upgrades a 0050 workspace: old history unchanged and still append-only, merges recorded beside the action', () => {
    const file = join(tmp(), 'w.factlab')
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 70) })
    loadDemoIfEmpty(new Workspace(file, old))
    const target = (old.prepare('SELECT id FROM targets LIMIT 1').get() as { id: number }).id
    const before = old.prepare('SELECT COUNT(*) AS n FROM label_history').get() as { n: number }
    expect(schemaVersion(old)).toBeLessThan(70)
    old.close()

    const ws = Workspace.open(file)
    expect(schemaVersion(ws.db)).toBeGreaterThanOrEqual(70)
    expect(ws.db.prepare('SELECT COUNT(*) AS n FROM label_history').get()).toEqual(before)
    expect(
      ws.db.prepare('SELECT COUNT(*) AS n FROM label_history WHERE merged_at IS NOT NULL').get(),
    ).toEqual({ n: 0 })
    expect(() => ws.db.prepare('UPDATE label_history SET merged_at = 1').run()).toThrow(/append-only/)
    expect(() => ws.db.prepare('DELETE FROM label_history').run()).toThrow(/append-only/)

    const cleo = ensureAnnotator(ws.db, 'Cleo')
    const writer = new LabelWriter(ws.db)
    writer.save({ targetId: target, annotatorId: cleo.id, verdict: 'false' })
    writer.save(
      { targetId: target, annotatorId: cleo.id, verdict: 'true' },
      'set',
      '2026-02-01T00:00:00.000Z',
      {
        at: '2026-03-01T00:00:00.000Z',
        from: 'cleo.bundle.jsonl',
      },
    )
    expect(labelHistory(ws.db, target, cleo.id).map((h) => [h.verdict, h.action, h.mergedFrom])).toEqual([
      ['false', 'set', null],
      ['true', 'set', 'cleo.bundle.jsonl'],
    ])
    ws.close()
  })
})
