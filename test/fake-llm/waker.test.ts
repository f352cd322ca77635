import { afterAll, describe, expect, it } from 'vitest'
import { Waker } from './waker'

const waker = new Waker()
afterAll(() => waker.close())

describe('the fake server clock', () => {
  it('answers every waiter at or after its time, earliest first, whatever order they came in', async () => {
    await waker.start()
    const start = performance.now()
    // Some already past; the rest out of order and in bunches, some within a millisecond of each
    // other, far enough ahead (half a second) that all are asked for before the first is due
    // however busy the machine is.
    const past = Array.from({ length: 20 }, (_, i) => start - 5 + i * 0.2)
    const ahead = Array.from({ length: 180 }, (_, i) => start + 500 + ((i * 37) % 60) + (i % 3) * 0.3)
    const woke: { due: number; at: number }[] = []
    const waits = [...ahead, ...past].map((due) =>
      waker.at(due).then(() => woke.push({ due, at: performance.now() })),
    )
    await Promise.all(waits)
    expect(woke).toHaveLength(200)
    for (const w of woke) expect(w.at).toBeGreaterThanOrEqual(w.due)
    const aheadOrder = woke.filter((w) => w.due >= start + 500).map((w) => w.due)
    expect(aheadOrder).toEqual([...ahead].sort((a, b) => a - b))
  })
})
