import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { storeTrouble, troubleKind } from '../../src/main/store/trouble'

const err = (code: string, message = 'x') => Object.assign(new Error(message), { code })

/*
 * One classifier for every caller: what kind of trouble an error is (troubleKind), and whether it
 * is the workspace's passing trouble that a retry may cure (storeTrouble, which the transports
 * answer with `unavailable` and the CLI with exit 75).
 */
describe('what kind of trouble an error is', () => {
  it.each([
    ['SQLITE_BUSY', 'busy', 'busy'],
    ['SQLITE_BUSY_SNAPSHOT', 'busy', 'busy'],
    ['SQLITE_BUSY_TIMEOUT', 'busy', 'busy'],
    ['SQLITE_LOCKED', 'busy', 'busy'],
    ['SQLITE_LOCKED_SHAREDCACHE', 'busy', 'busy'],
    ['SQLITE_PROTOCOL', 'busy', 'busy'],
    ['SQLITE_FULL', 'full', 'full'],
    ['SQLITE_READONLY', 'readonly', 'readonly'],
    ['SQLITE_READONLY_DIRECTORY', 'readonly', 'readonly'],
    ['SQLITE_IOERR', 'io', 'io'],
    ['SQLITE_IOERR_WRITE', 'io', 'io'],
    ['SQLITE_IOERR_FSYNC', 'io', 'io'],
    ['SQLITE_NOTADB', 'notSqlite', null],
    ['SQLITE_CORRUPT', 'corrupt', null],
    ['SQLITE_CORRUPT_INDEX', 'corrupt', null],
    // File-system codes: trouble of some file, never the workspace's passing trouble.
    ['ENOSPC', 'full', null],
    ['EDQUOT', 'full', null],
    ['EROFS', 'readonly', null],
    ['EACCES', 'readonly', null],
    ['EPERM', 'readonly', null],
    // Not trouble at all: the input or a bug.
    ['SQLITE_CONSTRAINT_UNIQUE', null, null],
    ['SQLITE_ERROR', null, null],
    ['SQLITE_MISMATCH', null, null],
    ['SQLITE_BUSYNESS', null, null],
    ['ENOENT', null, null],
  ])('%s is %s (passing: %s)', (code, kind, passing) => {
    expect(troubleKind(err(code))).toBe(kind)
    expect(storeTrouble(err(code))).toBe(passing)
  })

  it('takes an I/O error that says the disk is full for a full disk', () => {
    expect(troubleKind(err('SQLITE_IOERR_WRITE', 'disk I/O error: no space left on device'))).toBe('full')
    expect(storeTrouble(err('SQLITE_IOERR_WRITE', 'disk is full'))).toBe('full')
  })

  it("reads better-sqlite3's own errors, and nothing without a code", () => {
    expect(storeTrouble(new Database.SqliteError('database is locked', 'SQLITE_BUSY'))).toBe('busy')
    expect(troubleKind(new Error('database or disk is full'))).toBeNull()
    expect(troubleKind('SQLITE_FULL')).toBeNull()
    expect(troubleKind(null)).toBeNull()
    expect(troubleKind({ code: 42 })).toBeNull()
  })
})
