import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it, vi } from 'vitest'
import { AppContext } from '../../src/main/app/context'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { SCREEN_SAVE_BUSY_MS } from '../../src/main/rpc/handlers/annotate'
import { BUSY_TIMEOUT_MS } from '../../src/main/store/busyWait'
import { seedWorkspace } from '../annotate/fixture'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

/**
 * better-sqlite3 waits for another program's lock on the one thread that answers every window:
 * measured on the browser-mode server, a read sent while a label waited the full 5 s took 5 s
 * too. A label from a screen now waits briefly (its queue keeps it and retries); the CLI waits
 * the full time, as one command has nothing else to answer.
 */
describe('how long a label save waits for a lock another program holds', () => {
  function setup(driver: 'browser' | 'cli') {
    const dir = tmp()
    const seeded = seedWorkspace(dir)
    seeded.ctx.close()
    const file = join(dir, 'w.factlab')
    const ctx = new AppContext(file, { driver })
    const waits: unknown[] = []
    const save = ctx.workspace.labels.save.bind(ctx.workspace.labels)
    vi.spyOn(ctx.workspace.labels, 'save').mockImplementation((...args) => {
      waits.push(ctx.workspace.db.pragma('busy_timeout', { simple: true }))
      return save(...args)
    })
    const input = {
      targetId: seeded.items[0]!.targets.answer![0]!,
      annotatorId: seeded.ana.id,
      verdict: 'true',
    }
    return { ctx, file, waits, input, call: () => dispatch(buildHandlers(ctx), 'annotate.save', input) }
  }

  it('is short from a screen, and the connection waits as before for everything else', async () => {
    const s = setup('browser')
    try {
      expect((await s.call()).ok).toBe(true)
      expect(s.waits).toEqual([SCREEN_SAVE_BUSY_MS])
      expect(s.ctx.workspace.db.pragma('busy_timeout', { simple: true })).toBe(BUSY_TIMEOUT_MS)
    } finally {
      s.ctx.close()
    }
  })

  it('answers a screen `unavailable` while the lock is held, and the same save lands once it is free', async () => {
    const s = setup('browser')
    const other = new Database(s.file)
    other.exec('BEGIN IMMEDIATE')
    try {
      const r = await s.call()
      expect(r.ok === false && r.error.code).toBe('unavailable')
      expect(s.ctx.workspace.db.pragma('busy_timeout', { simple: true })).toBe(BUSY_TIMEOUT_MS)
    } finally {
      other.exec('ROLLBACK')
      other.close()
    }
    try {
      expect((await s.call()).ok).toBe(true)
    } finally {
      s.ctx.close()
    }
  })

  it('is the full busy timeout for a CLI command', async () => {
    const s = setup('cli')
    try {
      expect((await s.call()).ok).toBe(true)
      expect(s.waits).toEqual([BUSY_TIMEOUT_MS])
    } finally {
      s.ctx.close()
    }
  })
})
