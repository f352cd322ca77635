import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { untilQuiet } from '../../src/main/app/untilQuiet'

/** Whether the promise has settled once the microtasks queued so far have run. */
async function settled(p: Promise<void>): Promise<boolean> {
  let done = false
  void p.then(() => {
    done = true
  })
  await Promise.resolve()
  await Promise.resolve()
  return done
}

describe('background work waits for a quiet event loop', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('starts only after the loop has stayed quiet for the whole window', async () => {
    // Busy for the first second (a view loading), then idle.
    const uses = [0.9, 0.8, 0.95, 0.7, 0, 0, 0, 0]
    let i = 0
    const p = untilQuiet({ quietMs: 1000, everyMs: 250, sample: () => uses[i++] ?? 0 })
    await vi.advanceTimersByTimeAsync(1000)
    expect(await settled(p)).toBe(false)
    await vi.advanceTimersByTimeAsync(750)
    expect(await settled(p)).toBe(false)
    await vi.advanceTimersByTimeAsync(250)
    expect(await settled(p)).toBe(true)
  })

  it('starts the window again when the loop gets busy before it ends', async () => {
    const uses = [0, 0, 0, 0.5, 0, 0, 0, 0]
    let i = 0
    const p = untilQuiet({ quietMs: 1000, everyMs: 250, sample: () => uses[i++] ?? 0 })
    await vi.advanceTimersByTimeAsync(1750)
    expect(await settled(p)).toBe(false)
    await vi.advanceTimersByTimeAsync(250)
    expect(await settled(p)).toBe(true)
  })

  it('stops waiting when the work is no longer wanted (the workspace closed)', async () => {
    const closing = new AbortController()
    const p = untilQuiet({ quietMs: 1000, everyMs: 250, sample: () => 0.9, signal: closing.signal })
    await vi.advanceTimersByTimeAsync(500)
    expect(await settled(p)).toBe(false)
    closing.abort()
    expect(await settled(p)).toBe(true)
    // Nothing is left running that would keep a finished process alive.
    expect(vi.getTimerCount()).toBe(0)
  })

  it('does not wait forever on a loop that is never quiet', async () => {
    const p = untilQuiet({ quietMs: 1000, maxMs: 5000, everyMs: 250, sample: () => 0.6 })
    await vi.advanceTimersByTimeAsync(4750)
    expect(await settled(p)).toBe(false)
    await vi.advanceTimersByTimeAsync(250)
    expect(await settled(p)).toBe(true)
  })
})
