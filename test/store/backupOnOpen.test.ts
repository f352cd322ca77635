import { existsSync } from 'node:fs'
import { join } from 'node:path'
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
    expect(backup).not.toBeNull()
    expect(listBackups(file).map((b) => b.file)).toEqual([backup])
    ws.close()
  })
})
