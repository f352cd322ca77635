import { execFileSync } from 'node:child_process'
import { closeSync, copyFileSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppContext } from '../../src/main/app/context'
import { Workspace } from '../../src/main/app/workspace'
import { openWorkspace } from '../../src/main/store/connection'
import { quickCheckInBackground } from '../../src/main/store/integrity'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

/** A workspace larger than the size checked before opening, with one of its tables damaged. */
function buildDamagedLargeWorkspace(file: string): void {
  const db = openWorkspace(file, { skipQuickCheck: true })
  db.exec('CREATE TABLE padding (x BLOB)')
  db.prepare('INSERT INTO padding VALUES (zeroblob(?))').run(40 * 2 ** 20)
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)')
  const insert = db.prepare('INSERT INTO notes (text) VALUES (?)')
  for (let i = 0; i < 2000; i++) insert.run(`note ${i} `.repeat(20))
  const root = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'notes'").pluck().get() as number
  const pageSize = db.pragma('page_size', { simple: true }) as number
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  // Garbage over the table's root page: the kind of damage a failing disk leaves.
  const fd = openSync(file, 'r+')
  writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (root - 1) * pageSize)
  closeSync(fd)
}

// Writing 40 MB through SQLite (the log, then the file) is most of this file's time: it is done
// once, and each test that wants the damaged workspace gets a copy of its own.
const templateDir = mkdtempSync(join(tmpdir(), 'factlab-integrity-'))
const template = join(templateDir, 'big.factlab')
beforeAll(() => buildDamagedLargeWorkspace(template), 180_000) // slow on a loaded disk, not a timing check
afterAll(() => rmSync(templateDir, { recursive: true, force: true }))

function damagedLargeWorkspace(): string {
  const file = `${tmp()}/big.factlab`
  copyFileSync(template, file)
  return file
}

describe('integrity check', () => {
  it('passes a healthy workspace, in the background as before opening', async () => {
    const file = `${tmp()}/ok.factlab`
    openWorkspace(file).close()
    expect(await quickCheckInBackground(file)).toEqual({ ok: true })
  })

  it('finds the damage of a large workspace after it opened, and then nothing more is written', async () => {
    const file = damagedLargeWorkspace()
    // Before this change the open itself refused the file; a large one now opens at once…
    expect(() => openWorkspace(file)).toThrow(/integrity check/)
    const ctx = new AppContext(file, { driver: 'browser' })
    const heard: unknown[] = []
    ctx.events.subscribe((name, payload) => {
      if (name === 'workspace.damaged') heard.push(payload)
    })
    const result = await ctx.workspace.integrity
    expect(result?.ok).toBe(false)
    // …and the check's answer turns it read-only and is announced.
    await new Promise((resolve) => setImmediate(resolve))
    expect(heard).toEqual([{ file, problem: expect.any(String) }])
    expect(() =>
      ctx.workspace.db.prepare("INSERT INTO annotators (name, created_at) VALUES ('x', 'x')").run(),
    ).toThrow(/readonly|read-only|query_only/i)
    ctx.close()
  })

  it('checks on the app thread when the background check cannot run, so a sound file is not called damaged', async () => {
    const sound = `${tmp()}/ok.factlab`
    openWorkspace(sound).close()
    // A worker that cannot load the SQLite driver (as a packaged app might) fails before it checks.
    const noDriver = `${tmp()}/missing-driver.js`
    expect(await quickCheckInBackground(sound, noDriver)).toEqual({ ok: true })
    // …and real damage is still found that way.
    const damaged = await quickCheckInBackground(damagedLargeWorkspace(), noDriver)
    expect(damaged.ok).toBe(false)
  })

  it('answers a caller awaiting the check in a process with nothing else to do', () => {
    // The check waits for the process to be quiet; that wait must keep such a process alive.
    const workspace = pathToFileURL(resolve('src/main/app/workspace.ts')).href
    const script = `import { Workspace } from '${workspace}'
const ws = Workspace.open(process.argv[1], { deferLargeCheck: true })
const r = await ws.integrity
console.log(JSON.stringify({ ok: r?.ok }))
ws.close()`
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script, damagedLargeWorkspace()],
      { encoding: 'utf8' },
    )
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({ ok: false })
  })

  it('checks a small workspace before it opens, as before', () => {
    const file = `${tmp()}/small.factlab`
    openWorkspace(file).close()
    const ws = Workspace.open(file, { deferLargeCheck: true })
    expect(ws.integrity).toBeNull()
    ws.close()
  })
})
