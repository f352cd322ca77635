import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { importFile } from '../../src/main/import'
import { LabelWriter } from '../../src/main/labels/labels'
import { LATEST_VERSION, openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { tmpDirs } from '../helpers/tmp'
import { fixture } from '../import/helpers'

const tmp = tmpDirs()

/**
 * A workspace as an import from before migration 0250 left it: RefChecker's human labels under a
 * person "refchecker". Made by importing with today's code, then turning the source back into a
 * person and the schema back to 0240 (0250 changes data only, so the two schemas are the same).
 */
async function olderRefcheckerWorkspace(handLabel: boolean): Promise<string> {
  const file = `${tmp()}/w.factlab`
  const ws = Workspace.open(file)
  await importFile(ws, { file: fixture('refchecker.json'), datasetName: 'rc' })
  const db = ws.db
  db.prepare("UPDATE annotators SET kind = 'person' WHERE name = 'refchecker'").run()
  if (handLabel) {
    // Someone picked "refchecker" on the start screen, as the older app offered it, and labelled.
    const me = db.prepare("SELECT id FROM annotators WHERE name = 'refchecker'").pluck().get() as number
    const target = db.prepare('SELECT MAX(id) FROM targets').pluck().get() as number
    new LabelWriter(db).save({ targetId: target, annotatorId: me, verdict: 'neutral' })
  }
  // The schema as 0240 left it: 0280 added a column since.
  db.exec('ALTER TABLE runs DROP COLUMN planned_calls')
  db.pragma('user_version = 240')
  ws.close()
  return file
}

const kinds = (ws: Workspace) =>
  ws.db.prepare('SELECT name, kind FROM annotators ORDER BY name').all() as { name: string; kind: string }[]

describe('migration 0250: the "refchecker" person an older RefChecker import made becomes its source', () => {
  it('turns it into the source, keeping every label, and a later import shares it', async () => {
    const file = await olderRefcheckerWorkspace(false)
    const ws = Workspace.open(file)
    try {
      expect(schemaVersion(ws.db)).toBe(LATEST_VERSION)
      expect(kinds(ws)).toEqual([{ name: 'refchecker', kind: 'source' }])
      expect(ws.db.prepare('SELECT COUNT(*) FROM labels').pluck().get()).toBe(5)
      const again = await importFile(ws, { file: fixture('refchecker.json'), datasetName: 'rc again' })
      expect(again.warnings).toEqual([])
      expect(kinds(ws)).toEqual([{ name: 'refchecker', kind: 'source' }])
    } finally {
      ws.close()
    }
  })

  it('leaves a "refchecker" someone labelled as a person; a new import keeps its labels under a source beside it', async () => {
    const file = await olderRefcheckerWorkspace(true)
    const ws = Workspace.open(file)
    try {
      expect(kinds(ws)).toEqual([{ name: 'refchecker', kind: 'person' }])
      const r = await importFile(ws, { file: fixture('refchecker.json'), datasetName: 'rc again' })
      expect(kinds(ws)).toEqual([
        { name: 'refchecker', kind: 'person' },
        { name: 'refchecker (source)', kind: 'source' },
      ])
      expect(r.warnings).toEqual([
        {
          kind: 'sourceRenamed',
          message:
            '"refchecker" is a person in this workspace: the file\'s labels by that name are kept as the source "refchecker (source)", apart from theirs',
        },
      ])
      const newLabels = ws.db
        .prepare(
          `SELECT DISTINCT a.name FROM labels l JOIN annotators a ON a.id = l.annotator_id
           JOIN targets t ON t.id = l.target_id WHERE t.dataset_id = ?`,
        )
        .pluck()
        .all(r.datasetId)
      expect(newLabels).toEqual(['refchecker (source)'])
    } finally {
      ws.close()
    }
  })

  it('leaves a person of that name that no RefChecker import made', () => {
    const file = `${tmp()}/w.factlab`
    const old = openWorkspace(file)
    old.prepare("INSERT INTO annotators (name, created_at) VALUES ('refchecker', '2025-01-01')").run()
    old.exec('ALTER TABLE runs DROP COLUMN planned_calls')
    old.pragma('user_version = 240')
    old.close()
    const ws = Workspace.open(file)
    try {
      expect(kinds(ws)).toEqual([{ name: 'refchecker', kind: 'person' }])
    } finally {
      ws.close()
    }
  })
})
