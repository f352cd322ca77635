import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  clockTime,
  decideLease,
  heldMessage,
  LEASE_STALE_MS,
  RUN_DRIVERS,
  type RunLease,
  takeoverNote,
} from '../../src/main/runs/leaseRules'

const NOW = Date.parse('2026-11-21T18:30:00.000Z')

function lease(over: Partial<RunLease> = {}): RunLease {
  return {
    runId: 7,
    owner: 'cli-owner',
    driver: 'cli',
    pid: 1234,
    host: 'lab-7',
    acquiredAt: '2026-11-21T18:02:00.000Z',
    heartbeatAt: new Date(NOW - 5_000).toISOString(),
    ...over,
  }
}

const alive = () => false
const gone = () => true

describe('who may drive a run', () => {
  it('lets the first driver in and refuses a second while the first is alive and heard from', () => {
    expect(decideLease(null, { owner: 'me' }, NOW, alive)).toEqual({ kind: 'free' })
    const l = lease()
    expect(decideLease(l, { owner: 'me' }, NOW, alive)).toEqual({ kind: 'held', lease: l })
    expect(decideLease(l, { owner: 'cli-owner' }, NOW, alive)).toEqual({ kind: 'mine' })
  })

  it('takes over a driver whose process is gone, however recent its heartbeat', () => {
    const l = lease({ heartbeatAt: new Date(NOW).toISOString() })
    expect(decideLease(l, { owner: 'me' }, NOW, gone)).toEqual({ kind: 'takeover', lease: l, reason: 'gone' })
  })

  it('takes over a driver silent for longer than the staleness window, and only then', () => {
    const justFresh = lease({ heartbeatAt: new Date(NOW - LEASE_STALE_MS).toISOString() })
    expect(decideLease(justFresh, { owner: 'me' }, NOW, alive).kind).toBe('held')
    const silent = lease({ heartbeatAt: new Date(NOW - LEASE_STALE_MS - 1).toISOString() })
    expect(decideLease(silent, { owner: 'me' }, NOW, alive)).toMatchObject({
      kind: 'takeover',
      reason: 'stale',
    })
    const garbled = lease({ heartbeatAt: 'not a time' })
    expect(decideLease(garbled, { owner: 'me' }, NOW, alive)).toMatchObject({
      kind: 'takeover',
      reason: 'stale',
    })
  })

  it('never lets two different owners both drive: a live, fresh holder always blocks everyone else', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        fc.constantFrom(...RUN_DRIVERS),
        fc.integer({ min: -LEASE_STALE_MS, max: LEASE_STALE_MS }),
        (holder, other, driver, age) => {
          fc.pre(holder !== other)
          const l = lease({ owner: holder, driver, heartbeatAt: new Date(NOW - age).toISOString() })
          const d = decideLease(l, { owner: other }, NOW, alive)
          expect(d.kind).toBe('held')
          expect(decideLease(l, { owner: holder }, NOW, alive).kind).toBe('mine')
        },
      ),
    )
  })
})

describe('what the person is told', () => {
  it('names the driver, its pid and host and since when, and what to do', () => {
    const l = lease()
    const at = new Date(l.acquiredAt)
    const hm = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`
    expect(heldMessage(l, new Date(l.acquiredAt))).toBe(
      `run 7 is being driven by the CLI, pid 1234 on host lab-7, since ${hm}; stop it there or wait`,
    )
    expect(heldMessage(lease({ driver: 'app' }), new Date(NOW))).toContain('by the desktop app, pid 1234')
    expect(heldMessage(lease({ driver: 'browser' }), new Date(NOW))).toContain('by browser mode, pid 1234')
  })

  it('adds the date to the time when the claim is from another day', () => {
    const at = '2026-11-19T10:05:00.000Z'
    const local = new Date(at)
    expect(clockTime(at, local)).toMatch(/^\d\d:\d\d$/)
    expect(clockTime(at, new Date(local.getTime() + 3 * 86_400_000))).toMatch(/^2026-11-\d\d \d\d:\d\d$/)
  })

  it('says why a lease was taken over', () => {
    const l = lease()
    expect(takeoverNote(l, 'gone', new Date(NOW))).toMatch(
      /^took over run 7 from the CLI, pid 1234 on host lab-7, since .+: that process is gone$/,
    )
    expect(takeoverNote(l, 'stale', new Date(NOW))).toMatch(/it had not been heard from since \d\d:\d\d$/)
  })
})
