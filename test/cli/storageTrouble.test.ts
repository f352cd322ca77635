import { spawnSync } from 'node:child_process'
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startServer } from '../../src/main/server/server'
import { LATEST_VERSION } from '../../src/main/store/connection'
import { busyOpenWords } from '../../src/shared/storeTrouble'
import { cli } from '../helpers/cli'
import { fillDiskAfterFirstRows } from '../helpers/fullDisk'
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

describe('a disk that fills up during an import', () => {
  it('says where and that nothing was imported, and the workspace still opens while the disk stays full', async () => {
    const dir = tmp()
    const file = await workspaceWithData(dir)
    fillDiskAfterFirstRows()
    const r = await cli(['import', FIXTURE, '--workspace', file, '--dataset', 'second'])
    expect(r.code).toBe(75)
    expect(r.err).toMatch(
      new RegExp(
        `^factlab: The disk holding ${file} is full \\(.+ free\\): the import stopped and nothing was imported; free some space there and import again\\. The \\d+ items? it had written are kept, hidden, as the incomplete import “second”`,
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

describe('a workspace another FactLab is writing to, when this one must bring it up to date', () => {
  it('is said to be busy, exits 75 and changes nothing; browser mode says the same sentence', async () => {
    const file = await workspaceWithData(tmp())
    // A workspace one format behind (as after an update of FactLab) needs a write to open.
    const older = LATEST_VERSION - 1
    const setBack = new Database(file)
    setBack.pragma(`user_version = ${older}`)
    setBack.close()
    // Another FactLab writing: it holds the write lock for longer than the wait.
    const other = new Database(file)
    other.exec('BEGIN IMMEDIATE')
    try {
      const r = await cli(['datasets', '--workspace', file])
      expect(r.code, r.err).toBe(75)
      expect(r.err).toBe(`factlab: ${busyOpenWords(file)}\n`)
      expect(r.err).toContain('is busy: another FactLab')
      expect(r.err).toContain('Nothing was changed')
      await expect(startServer({ workspaceFile: file, port: 0 })).rejects.toThrow(busyOpenWords(file))
    } finally {
      other.exec('ROLLBACK')
      other.close()
    }
    const after = new Database(file, { readonly: true })
    expect(after.pragma('user_version', { simple: true })).toBe(older)
    after.close()
    // Once it is free, it opens (and is brought up to date).
    expect((await cli(['datasets', '--workspace', file])).code).toBe(0)
  }, 60_000)
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
      // Refused as every other write on it: try again once it can be written (75), not bad input.
      expect(imported.code).toBe(75)
      expect(imported.err).toBe(
        `factlab: The folder ${dir} is not writable: SQLite needs to create its journal (team.factlab-wal and team.factlab-shm) beside the workspace file; make the folder writable, or copy the workspace into a folder you can write to: the import stopped and nothing was imported; import again once it can be written\n`,
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
    expect(imported.code).toBe(75)
    expect(imported.err).toMatch(
      new RegExp(
        `^factlab: The workspace file ${file} is read-only: FactLab can show and export what it holds but not change it; make the file writable \\(chmod u\\+w\\) to change it: the import stopped and nothing was imported; import again once it can be written\\n$`,
      ),
    )
    // The same exit as another write refused there (a guidelines version saved).
    const guide = join(dir, 'guide.md')
    writeFileSync(guide, '# How to label\n')
    chmodSync(guide, 0o644)
    const saved = asUser(['guidelines', '--dataset', 'labelled', '--file', guide, '--workspace', file])
    expect(saved.code, saved.err).toBe(75)
    expect(datasetRows(file)).toEqual([{ name: 'labelled', state: 'ready' }])
  })
})
