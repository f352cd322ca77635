import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { backupOnOpen, listBackups } from '../../src/main/store/backups'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('the backup taken when a workspace opens', () => {
  it('is skipped for a workspace this start created, and for one with no dataset', async () => {
    const file = join(tmp(), 'new.factlab')
    const existed = existsSync(file)
    const ws = Workspace.open(file)
    expect(await backupOnOpen(ws.db, file, existed)).toBeNull()
    // An existing file without any dataset: nothing of anyone's to keep either.
    expect(await backupOnOpen(ws.db, file, true)).toBeNull()
    expect(listBackups(file)).toEqual([])
    ws.close()
  })

  it('is taken for an existing workspace that holds data', async () => {
    const file = join(tmp(), 'used.factlab')
    const first = Workspace.open(file)
    loadDemoIfEmpty(first)
    first.close()
    const ws = Workspace.open(file)
    const backup = await backupOnOpen(ws.db, file, true)
    expect(backup?.reused).toBe(false)
    expect(backup?.bytes).toBe(statSync(backup?.file ?? '').size)
    expect(listBackups(file).map((b) => b.file)).toEqual([backup?.file])
    ws.close()
  })

  it('is not copied again while the workspace is unchanged since the newest, and is after a change', async () => {
    const file = join(tmp(), 'big.factlab')
    const first = Workspace.open(file)
    loadDemoIfEmpty(first)
    first.close()
    const open = async () => {
      const ws = Workspace.open(file)
      const backup = await backupOnOpen(ws.db, file, true)
      return { ws, backup }
    }
    const a = await open()
    a.ws.close()
    // A start that changes nothing (the app opened, looked, closed) names the same backup.
    const b = await open()
    expect(b.backup).toMatchObject({ file: a.backup?.file, reused: true })
    b.ws.close()
    const c = await open()
    expect(c.backup?.reused).toBe(true)
    c.ws.db.prepare("UPDATE datasets SET name = 'renamed' WHERE id = (SELECT MIN(id) FROM datasets)").run()
    c.ws.close()
    // Someone's change since: the next start copies the file as it is now.
    const d = await open()
    expect(d.backup?.reused).toBe(false)
    expect(d.backup?.file).not.toBe(a.backup?.file)
    const copy = new Database(d.backup?.file ?? '', { readonly: true })
    expect(copy.prepare('SELECT name FROM datasets ORDER BY id LIMIT 1').pluck().get()).toBe('renamed')
    copy.close()
    d.ws.close()
    expect(listBackups(file)).toHaveLength(2)
  })

  it('is taken again when a journal beside the file holds commits the backup lacks', async () => {
    const file = join(tmp(), 'crashed.factlab')
    const first = Workspace.open(file)
    loadDemoIfEmpty(first)
    first.close()
    const a = Workspace.open(file)
    await backupOnOpen(a.db, file, true)
    a.close()
    // A second process writes and stays open: its commits sit in the -wal file.
    const other = Workspace.open(file)
    other.db
      .prepare("UPDATE datasets SET name = 'by another' WHERE id = (SELECT MIN(id) FROM datasets)")
      .run()
    const b = Workspace.open(file)
    expect((await backupOnOpen(b.db, file, true))?.reused).toBe(false)
    b.close()
    other.close()
  })
})
