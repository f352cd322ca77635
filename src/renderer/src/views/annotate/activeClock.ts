/** No input for this long and the person is taken to be away: the gap is not counted as work. */
export const IDLE_MS = 60_000

/**
 * Honest time on task. Time counts only while the tab is visible, and a stretch without any
 * key, pointer or wheel input counts at most IDLE_MS (the time spent reading before the next
 * key), so a pause, a hidden tab or a coffee break is not billed as labelling. Pure: the caller
 * feeds it times (performance.now()), which is what makes it testable.
 */
export class ActiveClock {
  private active = 0
  private last: number
  private visible = true

  constructor(now: number) {
    this.last = now
  }

  /** Adds the time since the last event, capped at the idle threshold. */
  private settle(now: number): void {
    if (this.visible) this.active += Math.min(Math.max(0, now - this.last), IDLE_MS)
    this.last = now
  }

  activity(now: number): void {
    this.settle(now)
  }

  visibility(visible: boolean, now: number): void {
    this.settle(now)
    this.visible = visible
  }

  /** Active seconds since the last take (or start), and starts counting afresh. */
  take(now: number): number {
    this.settle(now)
    const s = this.active / 1000
    this.active = 0
    return Math.round(s * 10) / 10
  }

  /** Starts afresh without counting (focus moved to another unit). */
  reset(now: number): void {
    this.active = 0
    this.last = now
  }
}
