import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { z } from 'zod'
import type { Db } from '../store/connection'
import { now } from '../store/repos/rows'
import {
  decideLease,
  heldMessage,
  LEASE_HEARTBEAT_MS,
  type LeaseHolder,
  RUN_DRIVERS,
  type RunDriver,
  type RunLease,
  takeoverNote,
} from './leaseRules'

/** A second driver's refusal; the message names who holds the run and since when. */
export class RunLeaseHeld extends Error {
  override name = 'RunLeaseHeld'
  constructor(readonly lease: RunLease) {
    super(heldMessage(lease, new Date()))
  }
}

const LeaseRow = z.object({
  run_id: z.number(),
  owner: z.string(),
  driver: z.enum(RUN_DRIVERS),
  pid: z.number().int(),
  host: z.string(),
  acquired_at: z.string(),
  heartbeat_at: z.string(),
})

export function readLease(db: Db, runId: number): RunLease | null {
  const raw = db.prepare('SELECT * FROM run_leases WHERE run_id = ?').get(runId)
  if (raw === undefined) return null
  const r = LeaseRow.parse(raw)
  return {
    runId: r.run_id,
    owner: r.owner,
    driver: r.driver,
    pid: r.pid,
    host: r.host,
    acquiredAt: r.acquired_at,
    heartbeatAt: r.heartbeat_at,
  }
}

/** Claims this process holds right now, by owner id; released by `process.on('exit')`. */
const held = new Map<string, { db: Db; runId: number }>()
let exitHookInstalled = false

function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  // 'exit' handlers must be synchronous; better-sqlite3 is, so the release reaches the file.
  process.on('exit', () => {
    for (const [owner, h] of held) {
      try {
        if (h.db.open) releaseLease(h.db, h.runId, owner, 'the process exited')
      } catch {
        // The file may be locked or gone; the lease then goes stale, which is the fallback.
      }
    }
  })
}

/**
 * True only when the holder is known to be gone: a claim of this very process that no engine
 * holds any more, or a process on this host that no longer exists. A holder on another host is
 * never "gone" here; its heartbeat decides.
 */
export function holderGone(lease: RunLease): boolean {
  if (lease.host !== hostname()) return false
  if (lease.pid === process.pid) return !held.has(lease.owner)
  try {
    process.kill(lease.pid, 0)
    return false
  } catch (error) {
    // EPERM: the process exists but belongs to someone else, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

/** The holder a new claim by `driver` in this process would be. */
export function newHolder(driver: RunDriver): LeaseHolder {
  return { owner: randomUUID(), driver, pid: process.pid, host: hostname() }
}

function log(db: Db, runId: number, event: string, who: LeaseHolder, note: string | null): void {
  db.prepare(
    'INSERT INTO run_lease_log (run_id, event, driver, pid, host, note, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(runId, event, who.driver, who.pid, who.host, note, now())
}

export interface Claim {
  /** Set when a silent or vanished driver's lease was taken over: the sentence that was logged. */
  takeover: string | null
}

/**
 * Claims the run for `me`, or throws RunLeaseHeld. The read and the write happen under one
 * write lock (BEGIN IMMEDIATE), so two processes claiming at once cannot both win.
 */
export function claimLease(db: Db, runId: number, me: LeaseHolder, nowMs = Date.now()): Claim {
  const claim = db
    .transaction((): Claim => {
      const decision = decideLease(readLease(db, runId), me, nowMs, holderGone)
      if (decision.kind === 'held') throw new RunLeaseHeld(decision.lease)
      const at = new Date(nowMs).toISOString()
      db.prepare(
        `INSERT INTO run_leases (run_id, owner, driver, pid, host, acquired_at, heartbeat_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (run_id) DO UPDATE SET owner = excluded.owner, driver = excluded.driver,
           pid = excluded.pid, host = excluded.host, acquired_at = excluded.acquired_at,
           heartbeat_at = excluded.heartbeat_at`,
      ).run(runId, me.owner, me.driver, me.pid, me.host, at, at)
      if (decision.kind === 'takeover') {
        const note = takeoverNote(decision.lease, decision.reason, new Date(nowMs))
        log(db, runId, 'taken-over', me, note)
        return { takeover: note }
      }
      if (decision.kind === 'free') log(db, runId, 'claimed', me, null)
      return { takeover: null }
    })
    .immediate()
  installExitHook()
  held.set(me.owner, { db, runId })
  return claim
}

/** Gives the run up, if it is still ours (a takeover may have moved it on). */
export function releaseLease(db: Db, runId: number, owner: string, why: string | null = null): void {
  held.delete(owner)
  db.transaction(() => {
    const lease = readLease(db, runId)
    if (lease?.owner !== owner) return
    db.prepare('DELETE FROM run_leases WHERE run_id = ? AND owner = ?').run(runId, owner)
    log(db, runId, 'released', lease, why)
  })()
}

/** Refreshes the heartbeat; false when the lease is no longer ours. */
export function refreshLease(db: Db, runId: number, owner: string, nowMs = Date.now()): boolean {
  const info = db
    .prepare('UPDATE run_leases SET heartbeat_at = ? WHERE run_id = ? AND owner = ?')
    .run(new Date(nowMs).toISOString(), runId, owner)
  return info.changes === 1
}

/**
 * The lease of a run when someone else can be driving it (alive and heard from recently);
 * null when nobody is, or only a vanished or silent driver that the next claim will replace.
 */
export function liveLease(db: Db, runId: number, nowMs = Date.now()): RunLease | null {
  const decision = decideLease(readLease(db, runId), { owner: '' }, nowMs, holderGone)
  return decision.kind === 'held' ? decision.lease : null
}

/**
 * Removes a vanished or silent driver's lease when a run is paused or cancelled from here, so
 * the run is plainly free; a live driver's lease is refused with RunLeaseHeld.
 */
export function clearDeadLease(db: Db, runId: number, by: LeaseHolder, nowMs = Date.now()): void {
  db.transaction(() => {
    const decision = decideLease(readLease(db, runId), by, nowMs, holderGone)
    if (decision.kind === 'held') throw new RunLeaseHeld(decision.lease)
    if (decision.kind !== 'takeover') return
    db.prepare('DELETE FROM run_leases WHERE run_id = ?').run(runId)
    log(db, runId, 'released', by, takeoverNote(decision.lease, decision.reason, new Date(nowMs)))
  }).immediate()
}

/** The most recent takeover of a run, as logged, or null. */
export function lastTakeover(db: Db, runId: number): string | null {
  const row = db
    .prepare(
      "SELECT note FROM run_lease_log WHERE run_id = ? AND event = 'taken-over' ORDER BY id DESC LIMIT 1",
    )
    .get(runId) as { note: string | null } | undefined
  return row?.note ?? null
}

/**
 * Keeps a claim fresh while the run goes on. `onLost` fires once if another driver has taken
 * the run over (this process looked dead to it, e.g. after the machine slept).
 */
export function keepLease(
  db: Db,
  runId: number,
  owner: string,
  onLost: () => void,
  everyMs: number = LEASE_HEARTBEAT_MS,
): () => void {
  const timer = setInterval(() => {
    let ours: boolean
    try {
      ours = refreshLease(db, runId, owner)
    } catch {
      // The workspace was closed under the run; the run itself fails on its next write.
      clearInterval(timer)
      return
    }
    if (!ours) {
      clearInterval(timer)
      held.delete(owner)
      onLost()
    }
  }, everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
