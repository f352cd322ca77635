import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createHiddenDataset, stopFilling } from '../../src/main/import/hidden'
import { stoppedImports } from '../../src/main/import/stoppedImports'
import { openWorkspace } from '../../src/main/store/connection'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const apps = testApps()
const FIXTURE = join(__dirname, '..', 'fixtures', 'import', 'wikievalfacts.csv')

afterEach(() => {
  vi.restoreAllMocks()
})

/**
 * The disk fills up once an import has written its first rows: from then on every write
 * transaction fails as SQLite fails on a full disk, the import's withdrawal too (as in
 * test/cli/storageTrouble.test.ts).
 */
function fillDiskAfterFirstRows(): void {
  const exec = Database.prototype.exec
  vi.spyOn(Database.prototype, 'exec').mockImplementation(function (this: Database.Database, sql: string) {
    if (sql === 'BEGIN IMMEDIATE') {
      const written = this.prepare(
        "SELECT COUNT(*) FROM items i JOIN datasets d ON d.id = i.dataset_id WHERE d.state = 'importing'",
      )
        .pluck()
        .get() as number
      if (written > 0) throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL')
    }
    return exec.call(this, sql)
  })
}

const hiddenItems = (file: string) => {
  const db = new Database(file, { readonly: true })
  try {
    return db
      .prepare(
        "SELECT COUNT(*) FROM items i JOIN datasets d ON d.id = i.dataset_id WHERE d.state = 'importing'",
      )
      .pluck()
      .get() as number
  } finally {
    db.close()
  }
}

describe('an import the disk stopped half-way', () => {
  it('is listed as incomplete with the items it wrote, can be withdrawn once there is room, and frees its name', async () => {
    const file = join(tmp(), 'team.factlab')
    expect((await cli(['import', FIXTURE, '--workspace', file, '--dataset', 'labelled'])).code).toBe(0)
    fillDiskAfterFirstRows()
    const failed = await cli(['import', FIXTURE, '--workspace', file, '--dataset', 'second'])
    expect(failed.code).toBe(1)
    const written = hiddenItems(file)
    expect(written).toBeGreaterThan(0)

    // Still full. The CLI's list says so after the datasets, with the command that withdraws it.
    const listed = await cli(['datasets', '--workspace', file])
    expect(listed.code, listed.err).toBe(0)
    expect(listed.out).toMatch(/^#1 {2}labelled/)
    expect(listed.out).toContain(
      `Incomplete import “second”: it stopped after ${written} item${written === 1 ? '' : 's'} of ${FIXTURE}`,
    )
    expect(listed.out).toContain('factlab withdraw-import "second"')
    // --json stays the list of datasets; the incomplete import is said on stderr.
    const json = await cli(['datasets', '--workspace', file, '--json'])
    expect((JSON.parse(json.out) as { name: string }[]).map((d) => d.name)).toEqual(['labelled'])
    expect(json.err).toContain('Incomplete import “second”')

    // The app's Datasets view asks the same; withdrawing on a still-full disk changes nothing.
    const app = apps(file)
    const stopped = await app.value<{ datasetId: number; name: string; items: number }[]>(
      'datasets.stoppedImports',
      {},
    )
    expect(stopped).toMatchObject([{ name: 'second', items: written, file: FIXTURE }])
    const refused = await app.call('datasets.withdrawImport', { datasetId: stopped[0]!.datasetId })
    expect(refused.ok).toBe(false)
    if (!refused.ok) expect(refused.error.code).toBe('unavailable')
    expect(hiddenItems(file)).toBe(written)
    app.ctx.close()

    // Space freed: withdrawn from the CLI, the name is free for the file again.
    vi.restoreAllMocks()
    const withdrawn = await cli(['withdraw-import', 'second', '--workspace', file])
    expect(withdrawn.code, withdrawn.err).toBe(0)
    expect(withdrawn.out).toContain(`Withdrew the incomplete import "second" (${written} item`)
    expect(hiddenItems(file)).toBe(0)
    expect((await cli(['datasets', '--workspace', file])).out).not.toContain('Incomplete import')
    expect((await cli(['import', FIXTURE, '--workspace', file, '--dataset', 'second'])).code).toBe(0)
    const again = await cli(['withdraw-import', 'second', '--workspace', file])
    expect(again.code).toBe(1)
    expect(again.err).toContain('No stopped import named "second"')
  })

  it('is not an import still running: one this process is filling is not listed until it stops', () => {
    const db = openWorkspace(freshWorkspaceFile(join(tmp(), 'w.factlab')))
    try {
      const id = createHiddenDataset(db, { name: 'arriving', labelSchema: FAAF_SCHEMA })
      expect(stoppedImports(db)).toEqual([])
      stopFilling(id)
      expect(stoppedImports(db).map((s) => s.name)).toEqual(['arriving'])
    } finally {
      db.close()
    }
  })
})
