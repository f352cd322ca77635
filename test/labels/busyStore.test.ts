import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it, vi } from 'vitest'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { SaveQueue } from '../../src/renderer/src/views/annotate/saveQueue'
import { isFinalRefusal, pendingMessage } from '../../src/renderer/src/views/annotate/saveTrouble'
import { seedWorkspace } from '../annotate/fixture'
import { tmpDirs } from '../helpers/tmp'

/** What the renderer's api() throws for an error answer: the message, with the contract's code. */
class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

const tmp = tmpDirs()

/** A gate the test opens: the queue's pause before a retry ends only when the test says so. */
function gate() {
  let open: () => void = () => undefined
  const waiting: (() => void)[] = []
  return {
    pause: () =>
      new Promise<void>((resolve) => {
        open = resolve
        for (const w of waiting.splice(0)) w()
      }),
    /** Resolves once the queue is pausing before its next try. */
    paused: () => new Promise<void>((resolve) => waiting.push(resolve)),
    open: () => open(),
  }
}

function setup() {
  const dir = tmp()
  const s = seedWorkspace(dir)
  // Waiting for the lock is the busy timeout's job in the app; here the test holds the lock as
  // long as it likes, so every try meets it at once.
  s.ws.db.pragma('busy_timeout = 0')
  const handlers = buildHandlers(s.ctx)
  const labelsOf = (targetId: number) =>
    s.ws.db.prepare('SELECT verdict FROM labels WHERE target_id = ?').all(targetId) as { verdict: string }[]
  const refused: string[] = []
  const g = gate()
  const queue = new SaveQueue<string>({
    // The annotate view's own send: an error answer becomes an ApiError with its code.
    send: async (targetId, verdict) => {
      const r = await dispatch(handlers, 'annotate.save', { targetId, annotatorId: s.ana.id, verdict })
      if (!r.ok) throw new ApiError(r.error.code, r.error.message)
    },
    isRefusal: isFinalRefusal,
    onRefused: (_t, _l, reason) => refused.push(reason),
    pause: g.pause,
  })
  return { ...s, file: join(dir, 'w.factlab'), handlers, labelsOf, refused, gate: g, queue }
}

describe('a label saved while the workspace is busy or the disk is full', () => {
  it('waits while another connection holds the write lock, and lands once it is released', async () => {
    const s = setup()
    const target = s.items[0]!.targets.answer![0]!
    const other = new Database(s.file)
    other.exec('BEGIN IMMEDIATE')
    try {
      const saved = s.queue.add(target, 'true')
      await s.gate.paused()
      // Kept, not refused: still waiting, and the bar says why and that it will be saved.
      expect(s.refused).toEqual([])
      expect(s.queue.unacknowledged().get(target)).toBe('true')
      expect(pendingMessage(s.queue.lastError!)).toBe(
        'Not saved yet: the workspace is busy (another program, such as an import or a judge run, is writing to it). Your label is kept here and will be saved as soon as it is free.',
      )
      expect(s.labelsOf(target)).toEqual([])
      // Still locked at the next try: still kept.
      const again = s.gate.paused()
      s.gate.open()
      await again
      expect(s.queue.unacknowledged().has(target)).toBe(true)
      other.exec('COMMIT')
      s.gate.open()
      await saved
      expect(s.refused).toEqual([])
      expect(s.queue.size).toBe(0)
      expect(s.labelsOf(target)).toEqual([{ verdict: 'true' }])
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK')
      other.close()
      s.ctx.close()
    }
  })

  it('says the disk is full, keeps the label, and saves it when there is room', async () => {
    const s = setup()
    const target = s.items[1]!.targets.answer![1]!
    // An injected failure: the write SQLite makes when the disk has no room left.
    const full = vi.spyOn(s.ws.labels, 'save').mockImplementation(() => {
      throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL')
    })
    try {
      const saved = s.queue.add(target, 'false')
      await s.gate.paused()
      expect(s.refused).toEqual([])
      expect(pendingMessage(s.queue.lastError!)).toBe(
        'Not saved yet: the disk is full. Your label is kept here and will be saved when there is room.',
      )
      expect(s.labelsOf(target)).toEqual([])
      full.mockRestore()
      s.gate.open()
      await saved
      expect(s.labelsOf(target)).toEqual([{ verdict: 'false' }])
    } finally {
      full.mockRestore()
      s.ctx.close()
    }
  })

  it('answers any call that meets the lock with `unavailable` and a plain message, for the CLI too', async () => {
    const s = setup()
    const target = s.items[2]!.targets.answer![0]!
    const other = new Database(s.file)
    other.exec('BEGIN IMMEDIATE')
    try {
      const r = await dispatch(s.handlers, 'annotate.save', {
        targetId: target,
        annotatorId: s.ana.id,
        verdict: 'true',
      })
      expect(r).toEqual({
        ok: false,
        error: {
          code: 'unavailable',
          message:
            'The workspace is busy (another program, such as an import or a judge run, is writing to it): nothing was changed. Try again as soon as it is free.',
        },
      })
    } finally {
      other.exec('ROLLBACK')
      other.close()
      s.ctx.close()
    }
  })

  it('still takes a label back when the workspace refuses it for good', async () => {
    const s = setup()
    const saved = s.queue.add(999_999, 'true')
    await saved
    expect(s.refused).toHaveLength(1)
    expect(s.queue.size).toBe(0)
    s.ctx.close()
  })
})
