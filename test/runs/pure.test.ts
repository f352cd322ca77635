import { describe, expect, it } from 'vitest'
import { accountFor, MISSING_VERDICT } from '../../src/main/runs/accounting'
import { canonicalJson, requestHash } from '../../src/main/runs/hash'
import { backoffDelay, bucketWait, TokenBucket } from '../../src/main/runs/limits'

const target = (id: number) => ({
  targetId: id,
  unitId: id,
  kind: 'fact' as const,
  text: `f${id}`,
  triplet: null,
})

describe('one verdict per target', () => {
  it('fills forgotten targets with N/A, turns an empty ok into N/A, ignores strays and duplicates', () => {
    const out = accountFor(
      [target(1), target(2), target(3)],
      [
        { targetId: 3, status: 'ok', verdict: 'true' },
        { targetId: 3, status: 'ok', verdict: 'false' },
        { targetId: 1, status: 'ok', verdict: null },
        { targetId: 99, status: 'ok', verdict: 'true' },
      ],
    )
    expect(out.map((o) => [o.targetId, o.status, o.verdict])).toEqual([
      [1, 'na', null],
      [2, 'na', null],
      [3, 'ok', 'true'],
    ])
    expect(out[1]?.problem).toBe(MISSING_VERDICT)
  })
})

describe('request hash', () => {
  const base = { provider: 'openai', model: 'm', baseUrl: null, repeatIndex: 0 }
  it('ignores key order but not content, and separates repeats', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}')
    const h = requestHash({ ...base, request: { x: 1, y: 2 } })
    expect(requestHash({ ...base, request: { y: 2, x: 1 } })).toBe(h)
    expect(requestHash({ ...base, request: { x: 1, y: 3 } })).not.toBe(h)
    expect(requestHash({ ...base, model: 'other', request: { x: 1, y: 2 } })).not.toBe(h)
    expect(requestHash({ ...base, repeatIndex: 1, request: { x: 1, y: 2 } })).not.toBe(h)
  })
})

describe('backoff and rate limits', () => {
  it('uses retry-after when given, else exponential backoff with jitter, capped', () => {
    expect(backoffDelay(3, { baseMs: 1000, retryAfterMs: 250 })).toBe(250)
    expect(backoffDelay(1, { baseMs: 1000, random: () => 0 })).toBe(500)
    expect(backoffDelay(3, { baseMs: 1000, random: () => 1 })).toBe(4000)
    expect(backoffDelay(20, { baseMs: 1000, maxMs: 30_000, random: () => 1 })).toBe(30_000)
  })

  it('a token bucket spaces requests at the configured rate', async () => {
    expect(bucketWait(0, 1, 10, 0.01)).toBe(100)
    expect(bucketWait(5, 1, 10, 0.01)).toBe(0)
    // A fake clock: sleeping advances time, so the test measures the schedule, not the wall.
    let t = 0
    const slept: number[] = []
    const clock = {
      now: () => t,
      sleep: async (ms: number) => {
        slept.push(ms)
        t += ms
      },
    }
    const bucket = new TokenBucket(600, clock) // 10 per second, holding one second's worth
    for (let i = 0; i < 15; i++) await bucket.take(1)
    expect(t).toBeCloseTo(1400, 6)
    expect(slept.every((ms) => Math.abs(ms - 100) < 1e-6)).toBe(true)
  })
})
