/** Flow control for provider calls: a concurrency gate, token buckets and retry delays. */

export class Semaphore {
  private active = 0
  private readonly waiting: (() => void)[] = []

  constructor(private readonly size: number) {}

  async acquire(): Promise<void> {
    if (this.active < this.size) {
      this.active++
      return
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve))
  }

  release(): void {
    const next = this.waiting.shift()
    if (next) next()
    else this.active--
  }
}

/**
 * One call's place under a gate: taken when its first attempt is sent, kept through its retries
 * (a call backing off from a rate limit does not hand its place to a fresh request), given back
 * once. Giving back a place never taken does nothing.
 */
export class Slot {
  private held = false

  constructor(private readonly gate: Semaphore) {}

  async take(): Promise<void> {
    if (this.held) return
    await this.gate.acquire()
    this.held = true
  }

  /** Whether this gave a place back (false if it held none). */
  release(): boolean {
    if (!this.held) return false
    this.held = false
    this.gate.release()
    return true
  }
}

export interface Clock {
  now(): number
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

export const realClock: Clock = { now: () => performance.now(), sleep: abortableSleep }

/**
 * Milliseconds to wait before `amount` can be taken from a bucket holding `level`, refilled at
 * `perMs`. A request bigger than the bucket waits for a full bucket and then drives it below
 * zero, so it is slowed down but never refused.
 */
export function bucketWait(level: number, amount: number, capacity: number, perMs: number): number {
  const need = Math.min(amount, capacity)
  return level >= need ? 0 : (need - level) / perMs
}

/**
 * A per-minute limit as a token bucket holding one second's worth, so the rate is smooth from
 * the start instead of a full minute's burst followed by a stall.
 */
export class TokenBucket {
  private level: number
  private last: number
  private readonly capacity: number
  private readonly perMs: number
  private queue: Promise<void> = Promise.resolve()

  constructor(
    perMinute: number,
    private readonly clock: Clock = realClock,
  ) {
    this.perMs = perMinute / 60_000
    this.capacity = Math.max(1, perMinute / 60)
    // Start nearly empty: a full bucket would let a second's worth through at once and the
    // first minute would exceed the limit.
    this.level = 1
    this.last = clock.now()
  }

  private refill(): void {
    const t = this.clock.now()
    this.level = Math.min(this.capacity, this.level + (t - this.last) * this.perMs)
    this.last = t
  }

  /** Waits its turn (first come, first served) and takes `amount`. */
  take(amount: number, signal?: AbortSignal): Promise<void> {
    const turn = this.queue.then(async () => {
      this.refill()
      const wait = bucketWait(this.level, amount, this.capacity, this.perMs)
      if (wait > 0) {
        await this.clock.sleep(wait, signal)
        this.refill()
      }
      this.level -= amount
    })
    this.queue = turn.catch(() => undefined)
    return turn
  }

  /** Corrects an estimate once the real usage is known (may leave the bucket in debt). */
  adjust(delta: number): void {
    this.level -= delta
  }
}

/**
 * Delay before attempt `attempt + 1`: the server's retry-after when it gave one, otherwise
 * exponential backoff with jitter (half to full of base · 2^(attempt-1)), capped.
 */
export function backoffDelay(
  attempt: number,
  opts: { baseMs: number; maxMs?: number; retryAfterMs?: number; random?: () => number },
): number {
  const max = opts.maxMs ?? 60_000
  if (opts.retryAfterMs !== undefined) return Math.min(opts.retryAfterMs, max)
  const random = opts.random ?? Math.random
  const exp = opts.baseMs * 2 ** Math.max(0, attempt - 1)
  return Math.min(max, exp * (0.5 + random() * 0.5))
}
