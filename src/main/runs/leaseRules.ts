/**
 * Who may drive a run: the pure rules behind the run lease (no clock, no process table, no
 * store), so every case can be tested on its own. The I/O around them lives in lease.ts.
 */

import { RUN_DRIVERS, type RunDriver } from '../../shared/contract/runs'

export { RUN_DRIVERS, type RunDriver }

/** A driver refreshes its lease this often while the run goes on. */
export const LEASE_HEARTBEAT_MS = 15_000
/**
 * A lease not refreshed for this long is taken over even if its process still seems to exist
 * (a hung process, a machine that slept, or a driver on another host whose pid we cannot
 * check). Four missed heartbeats: long enough that a busy machine never loses a live run.
 */
export const LEASE_STALE_MS = 60_000

export interface LeaseHolder {
  /** A fresh random id per claim: tells two drivers in one process apart. */
  owner: string
  driver: RunDriver
  pid: number
  host: string
}

export interface RunLease extends LeaseHolder {
  runId: number
  acquiredAt: string
  heartbeatAt: string
}

export type LeaseDecision =
  | { kind: 'free' }
  | { kind: 'mine' }
  | { kind: 'held'; lease: RunLease }
  | { kind: 'takeover'; lease: RunLease; reason: 'gone' | 'stale' }

/**
 * Whether `me` may drive a run whose current lease is `lease`. `holderGone` answers only what
 * can be known for sure (same host and the process is gone); a heartbeat older than `staleMs`
 * (or unreadable) counts as gone too.
 */
export function decideLease(
  lease: RunLease | null,
  me: Pick<LeaseHolder, 'owner'>,
  nowMs: number,
  holderGone: (lease: RunLease) => boolean,
  staleMs: number = LEASE_STALE_MS,
): LeaseDecision {
  if (lease === null) return { kind: 'free' }
  if (lease.owner === me.owner) return { kind: 'mine' }
  if (holderGone(lease)) return { kind: 'takeover', lease, reason: 'gone' }
  const beat = Date.parse(lease.heartbeatAt)
  // A heartbeat slightly ahead of our clock (another host) is fresh, not stale.
  if (Number.isNaN(beat) || nowMs - beat > staleMs) return { kind: 'takeover', lease, reason: 'stale' }
  return { kind: 'held', lease }
}

const DRIVER_WORDS: Record<RunDriver, string> = {
  app: 'the desktop app',
  browser: 'browser mode',
  cli: 'the CLI',
  other: 'another FactLab process',
}

export function driverWords(driver: RunDriver): string {
  return DRIVER_WORDS[driver]
}

const pad = (n: number) => String(n).padStart(2, '0')

/** Local wall-clock time; the date is added only when it is not today. */
export function clockTime(iso: string, now: Date): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`
  const sameDay =
    d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate()
  return sameDay ? hm : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${hm}`
}

/** "the CLI, pid 1234 on host lab-7, since 18:02" */
export function describeHolder(lease: LeaseHolder & { acquiredAt: string }, now: Date): string {
  return `${driverWords(lease.driver)}, pid ${lease.pid} on host ${lease.host}, since ${clockTime(lease.acquiredAt, now)}`
}

/** The refusal a second driver sees. */
export function heldMessage(lease: RunLease, now: Date): string {
  return `run ${lease.runId} is being driven by ${describeHolder(lease, now)}; stop it there or wait`
}

/** What is written down when a silent or vanished driver's lease is taken over. */
export function takeoverNote(lease: RunLease, reason: 'gone' | 'stale', now: Date): string {
  const why =
    reason === 'gone'
      ? 'that process is gone'
      : `it had not been heard from since ${clockTime(lease.heartbeatAt, now)}`
  return `took over run ${lease.runId} from ${describeHolder(lease, now)}: ${why}`
}

/**
 * The takeover note a run shows, if any. It explains who drives a run that is still under way; a
 * run that finished (done or cancelled) is driven by nobody, so showing it there would read as if
 * the run were still taken over. The lease log keeps the note either way.
 */
export function standingTakeover(status: string, note: string | null): string | null {
  return status === 'done' || status === 'cancelled' ? null : note
}
