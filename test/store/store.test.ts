import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LabelWriter, labelHistory, nextUnlabelledTarget } from '../../src/main/labels/labels'
import { listBackups, restoreBackup, rollingBackup } from '../../src/main/store/backups'
import { LATEST_VERSION, openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { ContentWriter } from '../../src/main/store/repos/content'
import { createDataset, datasetStats } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

function seed(file: string) {
  const db = openWorkspace(file)
  const ds = createDataset(db, { name: 'demo', labelSchema: FAAF_SCHEMA })
  const w = new ContentWriter(db)
  const item = w.insertItem(ds.id, { extId: 'q1', question: 'Q?', reference: 'Ref.' }, 0)
  const a = w.insertCandidate(item, { variant: 'answer', text: 'A' })
  w.insertUnit(item, { kind: 'fact', text: 'Fact one' })
  w.insertUnit(item, { kind: 'fact', text: 'Fact two' })
  // A candidate added after the facts still gets a target per fact.
  const b = w.insertCandidate(item, { variant: 'poor_answer', text: 'B' })
  return { db, ds, a, b }
}

describe('workspace store', () => {
  it('creates a workspace at the latest schema with WAL, FULL sync and foreign keys', () => {
    const db = openWorkspace(join(tmp(), 'w.factlab'))
    expect(schemaVersion(db)).toBe(LATEST_VERSION)
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('synchronous', { simple: true })).toBe(2)
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
  })

  it('refuses a workspace written by a newer version', () => {
    const file = join(tmp(), 'w.factlab')
    const db = openWorkspace(file)
    db.pragma('user_version = 9990')
    db.close()
    expect(() => openWorkspace(file)).toThrow(/newer FactLab/)
  })

  it('makes a target per fact and candidate, whichever was inserted first', () => {
    const { db, ds } = seed(join(tmp(), 'w.factlab'))
    expect(datasetStats(db, ds.id)).toMatchObject({ items: 1, candidates: 2, units: 2, targets: 4 })
  })

  it('keeps every label state in an append-only history and rejects unknown verdicts', () => {
    const { db, ds } = seed(join(tmp(), 'w.factlab'))
    const ann = ensureAnnotator(db, 'ana')
    const writer = new LabelWriter(db)
    const first = nextUnlabelledTarget(db, ds.id, ann.id)
    expect(first).not.toBeNull()
    writer.save({ targetId: first!, annotatorId: ann.id, verdict: 'true', note: 'clear' })
    writer.save({ targetId: first!, annotatorId: ann.id, verdict: 'false' })
    expect(() => writer.save({ targetId: first!, annotatorId: ann.id, verdict: 'maybe' })).toThrow(
      /not one of/,
    )
    const history = labelHistory(db, first!, ann.id)
    expect(history.map((h) => h.verdict)).toEqual(['true', 'false'])
    expect(history[1]?.note).toBe('clear')
    expect(() => db.prepare('DELETE FROM label_history').run()).toThrow(/append-only/)
    expect(nextUnlabelledTarget(db, ds.id, ann.id)).not.toBe(first)
  })

  it('backs up while open, keeps a bounded number, and restores in one step', async () => {
    const dir = tmp()
    const file = join(dir, 'w.factlab')
    const { db, ds } = seed(file)
    for (let i = 0; i < 4; i++) await rollingBackup(db, file, 3)
    expect(listBackups(file)).toHaveLength(3)
    db.prepare('DELETE FROM verdicts').run()
    db.prepare("UPDATE datasets SET name = 'renamed' WHERE id = ?").run(ds.id)
    db.close()
    restoreBackup(listBackups(file)[0]!.file, file)
    const reopened = openWorkspace(file)
    expect((reopened.prepare('SELECT name FROM datasets').get() as { name: string }).name).toBe('demo')
  })
})
