import type { Db } from '../store/connection'
import { relaxedWrite } from '../store/statements'

interface Pending {
  fn: () => unknown
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/**
 * A run's bookkeeping writes (call records, verdicts) gathered over one turn of the event loop
 * and committed together: at 128 calls in flight, a transaction per write cost more than the
 * writes themselves. The promise of each write settles only once its transaction has committed,
 * so whoever waits on it (the call's concurrency slot, the progress count) never reports a result
 * that a kill could still lose; a kill before the commit loses only replies nobody was told of,
 * and resume asks for those again.
 */
export class TickWrites {
  private queue: Pending[] = []
  private scheduled = false
  private idle: Promise<void> = Promise.resolve()
  private markIdle: () => void = () => undefined

  constructor(private readonly db: Db) {}

  /** Runs `fn` inside the next shared transaction and resolves with its result once committed. */
  write<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject })
      if (this.scheduled) return
      this.scheduled = true
      this.idle = new Promise((r) => {
        this.markIdle = r
      })
      // After the I/O callbacks of this turn, so every reply that arrived together commits together.
      setImmediate(() => this.flush())
    })
  }

  /** Whether a write is waiting for the next commit. */
  pending(): boolean {
    return this.scheduled
  }

  /** Resolves once no write is waiting any more (including writes asked for while it waits). */
  async settled(): Promise<void> {
    while (this.scheduled) await this.idle
  }

  private flush(): void {
    const batch = this.queue
    this.queue = []
    this.scheduled = false
    try {
      const results = relaxedWrite(this.db, () => batch.map((p) => p.fn()))
      for (let i = 0; i < batch.length; i++) batch[i]?.resolve(results[i])
    } catch {
      // One bad write must not fail the others: the batch rolled back as a whole, so each write
      // is tried again in a transaction of its own, as it would have been without batching.
      for (const p of batch) {
        try {
          p.resolve(relaxedWrite(this.db, p.fn))
        } catch (error) {
          p.reject(error)
        }
      }
    }
    this.markIdle()
  }
}
