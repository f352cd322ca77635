import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { LATEST_VERSION, migrate, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'

describe('migrations', () => {
  it('are numbered in multiples of ten, increasing (numbers are assigned per change, so gaps occur)', () => {
    MIGRATIONS.forEach((m, i) => {
      expect(m.version % 10).toBe(0)
      if (i > 0) expect(m.version).toBeGreaterThan(MIGRATIONS[i - 1]!.version)
    })
    expect(MIGRATIONS[0]!.version).toBe(10)
  })

  it('bring an empty database to the latest version, and each applies on top of the previous schema', () => {
    for (let upTo = 1; upTo <= MIGRATIONS.length; upTo++) {
      const db = new Database(':memory:')
      db.pragma('foreign_keys = ON')
      migrate(db, MIGRATIONS.slice(0, upTo - 1))
      migrate(db, MIGRATIONS.slice(0, upTo))
      expect(schemaVersion(db)).toBe(MIGRATIONS[upTo - 1]?.version)
      expect(db.pragma('foreign_key_check')).toEqual([])
    }
    const db = new Database(':memory:')
    migrate(db)
    expect(schemaVersion(db)).toBe(LATEST_VERSION)
  })

  it('roll back a failing migration as a whole', () => {
    const db = new Database(':memory:')
    const broken = [
      ...MIGRATIONS,
      { version: 9990, name: 'broken', up: 'CREATE TABLE ok_table (x INTEGER); SELECT nope FROM missing;' },
    ]
    expect(() => migrate(db, broken)).toThrow()
    expect(schemaVersion(db)).toBe(LATEST_VERSION)
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'ok_table'").get()).toBeUndefined()
  })
})
