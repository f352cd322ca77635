import { afterAll, describe, expect, it } from 'vitest'
import { Waker } from './waker'

const waker = new Waker()
afterAll(() => waker.close())

describe('the fake server clock', () => {
  it('answers every waiter at or after its time, earliest first, whatever order they came in', async () => {
    await waker.start()
    const start = performance.now()
    // Out of order and in bunches, some already past, some within the last millisecond.
    const dues = Array.from({ length: 200 }, (_, i) => start + ((i * 37) % 60) - 5 + (i % 3) * 0.3)
    const woke: { due: number; at: number }[] = []
    const waits = dues.map((due) => waker.at(due).then(() => woke.push({ due, at: performance.now() })))
    const asked = performance.now()
    await Promise.all(waits)
    expect(woke).toHaveLength(200)
    for (const w of woke) expect(w.at).toBeGreaterThanOrEqual(w.due)
    // Those still ahead once all were asked for come in the order of their times.
    const ahead = woke.filter((w) => w.due > asked).map((w) => w.due)
    expect(ahead.length).toBeGreaterThan(100)
    expect(ahead).toEqual([...ahead].sort((a, b) => a - b))
  })
})
