import { spawnSync } from 'node:child_process'
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const FIXTURE = join(__dirname, '..', 'fixtures', 'import', 'wikievalfacts.csv')
const BIN = join(__dirname, '..', '..', 'bin', 'factlab.js')

afterEach(() => {
  vi.restoreAllMocks()
})

async function workspaceWithData(dir: string): Promise<string> {
  const file = join(dir, 'team.factlab')
  const r = await cli(['import', FIXTURE, '--workspace', file, '--dataset', 'labelled'])
  expect(r.code, r.err).toBe(0)
  return file
}

const datasetRows = (file: string) => {
  const db = new Database(file, { readonly: true })
  try {
    return db.prepare('SELECT name, state FROM datasets ORDER BY id').all() as {
      name: string
      state: string
    }[]
  } finally {
    db.close()
  }
}

/** A pid that belongs to no running process: one that has just exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid

/**
 * The disk fills up once an import has written its first rows: from then on every write
 * transaction fails as SQLite fails on a full disk (and clean-ups fail too, the disk staying full).
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

describe('a disk that fills up during an import', () => {
  it('says where and that nothing was imported, and the workspace still opens while the disk stays full', async () => {
    const dir = tmp()
    const file = await workspaceWithData(dir)
    fillDiskAfterFirstRows()
    const r = await cli(['import', FIXTURE, '--workspace', file, '--dataset', 'second'])
    expect(r.code).toBe(1)
    expect(r.err).toMatch(
      new RegExp(
        `^factlab: The disk holding ${file} is full \\(.+ free\\): the import stopped and nothing was imported; free some space there and import again\\. The rows it had written are hidden`,
      ),
    )
    // The half-import is hidden; its process is gone, as a CLI's is once it has printed that.
    const db = new Database(file)
    db.prepare('UPDATE dataset_imports SET pid = ?').run(deadPid())
    db.close()
    expect(datasetRows(file)).toEqual([
      { name: 'labelled', state: 'ready' },
      { name: 'second', state: 'importing' },
    ])

    // Still full: reading commands work, and show only what was there.
    const listed = await cli(['datasets', '--workspace', file])
    expect(listed.code, listed.err).toBe(0)
    expect(listed.out).toContain('labelled')
    // Not as a dataset: as an incomplete import, after the list (test/import/stoppedImport.test.ts).
    expect(listed.out).not.toMatch(/^#\d+ {2}second/m)
    expect(listed.out).toContain('Incomplete import “second”')

    // Space freed: the next open withdraws the half-import.
    vi.restoreAllMocks()
    expect((await cli(['datasets', '--workspace', file])).code).toBe(0)
    expect(datasetRows(file)).toEqual([{ name: 'labelled', state: 'ready' }])
  })
})

describe('a file that is not a workspace', () => {
  it('is named as not a FactLab workspace and left as it was', async () => {
    const file = join(tmp(), 'notes.factlab')
    const text = 'Meeting notes, not a database at all. '.repeat(10)
    writeFileSync(file, text)
    const r = await cli(['datasets', '--workspace', file])
    expect(r.code).toBe(1)
    expect(r.err).toBe(
      `factlab: ${file} is not a FactLab workspace (not an SQLite file). Nothing was changed\n`,
    )
    expect(readFileSync(file, 'utf8')).toBe(text)
  })

  it('from a newer FactLab is refused in plain words', async () => {
    const file = await workspaceWithData(tmp())
    const db = new Database(file)
    db.pragma('user_version = 99999')
    db.close()
    const r = await cli(['datasets', '--workspace', file])
    expect(r.code).toBe(1)
    expect(r.err).toMatch(
      new RegExp(
        `^factlab: ${file} was written by a newer FactLab \\(workspace format 99999; this one reads formats up to \\d+\\)\\. Update FactLab to open it\\. Nothing was changed\\n$`,
      ),
    )
  })
})

/**
 * Runs bin/factlab.js as someone the permissions bind: root may write anywhere, so as root the
 * command runs as `nobody`.
 */
function asUser(args: string[]): { code: number | null; out: string; err: string } {
  const root = process.getuid?.() === 0
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    ...(root ? { uid: 65534, gid: 65534 } : {}),
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

/**
 * Whether the CLI runs at all as that user here: a checkout inside a folder only root may enter
 * (a CI runner's private temporary folder) cannot be run as `nobody`, and the permission tests
 * below would test nothing but that.
 */
const runsAsUser = asUser(['--version']).code === 0

describe.skipIf(!runsAsUser)('a workspace FactLab may not write', () => {
  it('in a read-only folder: reading commands work, and a write names the folder', async () => {
    const dir = tmp()
    chmodSync(dir, 0o755)
    const file = await workspaceWithData(dir)
    chmodSync(file, 0o666)
    chmodSync(dir, 0o555)
    try {
      const listed = asUser(['datasets', '--workspace', file])
      expect(listed.code, listed.err).toBe(0)
      expect(listed.out).toContain('labelled')
      const imported = asUser(['import', FIXTURE, '--workspace', file, '--dataset', 'more'])
      expect(imported.code).toBe(1)
      expect(imported.err).toBe(
        `factlab: The folder ${dir} is not writable: SQLite needs to create its journal (team.factlab-wal and team.factlab-shm) beside the workspace file; make the folder writable, or copy the workspace into a folder you can write to: the import stopped and nothing was imported\n`,
      )
    } finally {
      chmodSync(dir, 0o755)
    }
    expect(datasetRows(file)).toEqual([{ name: 'labelled', state: 'ready' }])
  })

  it('a read-only file: reading commands work, and a write names the file', async () => {
    const dir = tmp()
    chmodSync(dir, 0o777)
    const file = await workspaceWithData(dir)
    chmodSync(file, 0o444)
    const listed = asUser(['datasets', '--workspace', file])
    expect(listed.code, listed.err).toBe(0)
    expect(listed.out).toContain('labelled')
    const imported = asUser(['import', FIXTURE, '--workspace', file, '--dataset', 'more'])
    expect(imported.code).toBe(1)
    expect(imported.err).toMatch(
      new RegExp(
        `^factlab: The workspace file ${file} is read-only: FactLab can show and export what it holds but not change it; make the file writable \\(chmod u\\+w\\) to change it: the import stopped and nothing was imported\\n$`,
      ),
    )
    expect(datasetRows(file)).toEqual([{ name: 'labelled', state: 'ready' }])
  })
})
