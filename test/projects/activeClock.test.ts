import { describe, expect, it } from 'vitest'
import { ActiveClock, IDLE_MS } from '../../src/renderer/src/views/annotate/activeClock'

describe('active time per label', () => {
  it('counts steady work in full', () => {
    const c = new ActiveClock(0)
    for (let t = 1000; t <= 10_000; t += 1000) c.activity(t)
    expect(c.take(10_000)).toBe(10)
  })

  it('does not count a hidden tab', () => {
    const c = new ActiveClock(0)
    c.activity(4000)
    c.visibility(false, 5000)
    c.visibility(true, 600_000)
    c.activity(603_000)
    expect(c.take(603_000)).toBe(8)
  })

  it('counts at most the idle threshold of a stretch without input', () => {
    const c = new ActiveClock(0)
    c.activity(2000)
    c.activity(2000 + 20 * 60_000) // twenty minutes away
    expect(c.take(2000 + 20 * 60_000)).toBe((2000 + IDLE_MS) / 1000)
  })

  it('starts afresh after a take or a reset', () => {
    const c = new ActiveClock(0)
    c.activity(3000)
    c.take(3000)
    c.activity(5000)
    expect(c.take(5000)).toBe(2)
    c.reset(9000)
    expect(c.take(10_000)).toBe(1)
  })
})
