import { existsSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { datasetSummary } from '../../src/main/annotate/datasets'
import { Workspace } from '../../src/main/app/workspace'
import { importFile } from '../../src/main/import'
import { openWorkspace } from '../../src/main/store/connection'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { GRADED, gradedFile } from './graded'

const tmp = tmpDirs()

const names = (db: Database.Database) =>
  (db.prepare('SELECT name FROM datasets ORDER BY id').all() as { name: string }[]).map((r) => r.name)

describe('an import into a deserialized in-memory copy of a workspace', () => {
  it('lands in the copy, which then finds the dataset, and writes no file of the name the copy goes by', async () => {
    const dir = tmp()
    const seeded = openWorkspace(':memory:', { skipQuickCheck: true })
    createDataset(seeded, { name: 'earlier', labelSchema: FAAF_SCHEMA })
    const copy = new Database(seeded.serialize())
    seeded.close()
    copy.pragma('foreign_keys = ON')
    // A copy may go by the name of the workspace it stands for; it is still in memory.
    const named = join(dir, 'w.factlab')
    const ws = new Workspace(named, copy)
    try {
      const report = await importFile(ws, {
        file: gradedFile(dir, 4),
        mapping: GRADED,
        datasetName: 'graded',
      })
      expect(datasetSummary(copy, report.datasetId)).toMatchObject({ name: 'graded', items: 4 })
      expect(names(copy)).toEqual(['earlier', 'graded'])
    } finally {
      ws.close()
    }
    expect(existsSync(named)).toBe(false)
  })
})
