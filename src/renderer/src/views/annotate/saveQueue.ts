/**
 * The labels a person has given, on their way to the workspace. The screen moves on at once
 * (the label is drawn and the next unit takes the focus before the server answers); the queue
 * then sends the labels one at a time, in the order they were given, so an undo never overtakes
 * the label it undoes. A send that fails is tried again, after a growing pause, until it is
 * acknowledged: a label is never dropped, and until its acknowledgement it is listed as
 * unacknowledged so the screen can mark it as not yet saved. When another call gets through while a
 * label sits out its pause, the server is back: the label is tried again then, not at the end of
 * the pause (which grows to seconds while the server is away). Only a refusal that no retry can
 * change (the workspace says no, as opposed to not answering) ends a label's journey: it is handed
 * to `onRefused`, so the screen can take it back and say why. No React, no DOM: tested on its own.
 */

export interface SaveQueueOptions<L> {
  /** Sends one label; resolves once the workspace has it, throws otherwise. */
  send(targetId: number, label: L): Promise<void>
  /** Called after each acknowledgement, in order. */
  onAcknowledged?(targetId: number, label: L): void
  /**
   * Whether a failed send is a final refusal (the workspace answered no: the unit is gone, the
   * person stepped out of labelling) rather than a failure worth another try. Never, by default.
   */
  isRefusal?(error: unknown): boolean
  /** A label the workspace refused, with its reason: it is not stored and not tried again. */
  onRefused?(targetId: number, label: L, reason: string): void
  /** Called whenever size, error or the unacknowledged list may have changed. */
  onChange?(): void
  /** Pauses before the 1st, 2nd, … retry of one label (the last one repeats). */
  retryDelays?: readonly number[]
  /** Waits `ms` or until `wake` resolves, whichever is first (tests pass their own). */
  pause?(ms: number, wake: Promise<void>): Promise<void>
  /**
   * Starts sending when the queue was idle: at once by default. The annotate view passes "after
   * the next paint", so the cost of starting a request never delays drawing the label.
   */
  start?(send: () => void): void
}

interface Entry<L> {
  targetId: number
  label: L
  done: () => void
}

const DELAYS = [250, 500, 1000, 2000, 5000]

const realPause = (ms: number, wake: Promise<void>) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms)
    void wake.then(() => {
      clearTimeout(t)
      resolve()
    })
  })

export class SaveQueue<L> {
  private readonly entries: Entry<L>[] = []
  /** A drain is under way, or asked for and about to start. */
  private running = false
  /** Starts the drain that `start` has not started yet; null once it has. */
  private held: (() => void) | null = null
  private idle: (() => void)[] = []
  private wakeUp: () => void = () => {}
  private error: string | null = null
  private refusal: string | null = null
  private attempts = 0

  constructor(private readonly opts: SaveQueueOptions<L>) {}

  /** Queues a label; the promise resolves when the workspace has acknowledged (or refused) it. */
  add(targetId: number, label: L): Promise<void> {
    const acknowledged = new Promise<void>((done) => this.entries.push({ targetId, label, done }))
    this.changed()
    if (!this.running) {
      this.running = true
      const start = this.opts.start ?? ((send: () => void) => send())
      const go = () => {
        if (this.held !== go) return
        this.held = null
        void this.drain()
      }
      this.held = go
      start(go)
    }
    return acknowledged
  }

  /** Sends now what `start` is still holding back: the page is about to go away. */
  sendNow(): void {
    this.held?.()
  }

  /** Labels given but not yet acknowledged: the latest per target. */
  unacknowledged(): Map<number, L> {
    const out = new Map<number, L>()
    for (const e of this.entries) out.set(e.targetId, e.label)
    return out
  }

  get size(): number {
    return this.entries.length
  }

  /** Why the last attempt failed, while a label is waiting to be tried again; null otherwise. */
  get lastError(): string | null {
    return this.error
  }

  /** Why the workspace refused the last refused label, until a later label is acknowledged. */
  get lastRefusal(): string | null {
    return this.refusal
  }

  /** Tries again now instead of at the end of the current pause. */
  retryNow(): void {
    this.wakeUp()
  }

  /**
   * Another call to the workspace got its answer: a label sitting out its pause is tried again
   * now. One that fails again waits its next pause; nothing is dropped. An answer that comes while
   * no label waits changes nothing.
   */
  serverAnswered(): void {
    this.wakeUp()
  }

  /** Resolves once every label given so far is acknowledged. */
  flush(): Promise<void> {
    if (this.entries.length === 0) return Promise.resolve()
    return new Promise((resolve) => this.idle.push(resolve))
  }

  private changed(): void {
    this.opts.onChange?.()
  }

  private async drain(): Promise<void> {
    const delays = this.opts.retryDelays ?? DELAYS
    const pause = this.opts.pause ?? realPause
    while (this.entries.length > 0) {
      const head = this.entries[0]!
      try {
        await this.opts.send(head.targetId, head.label)
      } catch (e) {
        const reason = e instanceof Error ? e.message : String(e)
        if (this.opts.isRefusal?.(e)) {
          this.entries.shift()
          this.error = null
          this.attempts = 0
          this.refusal = reason
          head.done()
          this.opts.onRefused?.(head.targetId, head.label, reason)
          this.changed()
          continue
        }
        this.error = reason
        this.attempts++
        this.changed()
        const wake = new Promise<void>((resolve) => {
          this.wakeUp = resolve
        })
        await pause(delays[Math.min(this.attempts, delays.length) - 1] ?? 1000, wake)
        // A wake that comes after this pause (a send in flight, the queue idle) has nothing to cut short.
        this.wakeUp = () => {}
        continue
      }
      this.entries.shift()
      this.error = null
      this.refusal = null
      this.attempts = 0
      head.done()
      this.opts.onAcknowledged?.(head.targetId, head.label)
      this.changed()
    }
    this.running = false
    for (const resolve of this.idle.splice(0)) resolve()
  }
}
