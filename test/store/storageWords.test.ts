import { describe, expect, it } from 'vitest'
import { troubleKind } from '../../src/main/store/trouble'
import { type StorageFacts, sizeWords, storageWords } from '../../src/shared/storeTrouble'

const facts = (over: Partial<StorageFacts>): StorageFacts => ({
  kind: 'full',
  path: '/data/team.factlab',
  folder: '/data',
  name: 'team.factlab',
  free: null,
  fileReadOnly: false,
  folderReadOnly: false,
  ...over,
})

describe('storage trouble in plain words', () => {
  it('knows SQLite and file-system errors by their code, and nothing else', () => {
    const err = (code: string) => Object.assign(new Error('x'), { code })
    expect(troubleKind(err('SQLITE_FULL'))).toBe('full')
    expect(troubleKind(err('ENOSPC'))).toBe('full')
    expect(troubleKind(err('SQLITE_READONLY_DIRECTORY'))).toBe('readonly')
    expect(troubleKind(err('SQLITE_NOTADB'))).toBe('notSqlite')
    expect(troubleKind(err('SQLITE_CONSTRAINT_UNIQUE'))).toBeNull()
    expect(troubleKind(new Error('database or disk is full'))).toBeNull()
  })

  it('names the disk that is full and how much is free', () => {
    expect(storageWords(facts({ free: 12_300 }), 'workspace')).toBe(
      'The disk holding /data/team.factlab is full (12 kB free)',
    )
    expect(storageWords(facts({}), 'workspace')).toBe('The disk holding /data/team.factlab is full')
  })

  it('tells a read-only file from a folder SQLite may not write its journal in', () => {
    expect(storageWords(facts({ kind: 'readonly', fileReadOnly: true }), 'workspace')).toMatch(
      /^The workspace file \/data\/team.factlab is read-only: FactLab can show and export/,
    )
    expect(storageWords(facts({ kind: 'readonly', folderReadOnly: true }), 'workspace')).toMatch(
      /^The folder \/data is not writable: SQLite needs to create its journal \(team.factlab-wal and team.factlab-shm\) beside the workspace file/,
    )
  })

  it('calls a file that is not SQLite what it is', () => {
    expect(storageWords(facts({ kind: 'notSqlite' }), 'workspace')).toBe(
      '/data/team.factlab is not a FactLab workspace (not an SQLite file)',
    )
  })

  it('writes sizes a person can judge', () => {
    expect(sizeWords(0)).toBe('0 bytes')
    expect(sizeWords(1_234_567)).toBe('1.2 MB')
    expect(sizeWords(794_000_000)).toBe('794 MB')
  })
})
