import { Worker } from 'node:worker_threads'

/**
 * Wakes the fake server at exact moments without spinning for long. Node's timers fire on whole
 * milliseconds (often one late), and waiting out the last millisecond turn by turn kept the fake
 * server's thread busy whenever a reply was due within one: at a thousand replies a second that
 * is nearly always, and on a two-core machine the spinning took a core from the client being
 * measured. Here a small worker thread sleeps on a futex (microsecond-precise, no CPU while it
 * waits) until just before the earliest due time and posts a message; waking this thread takes
 * a few tenths of a millisecond, so it comes EARLY_MS ahead and only that last part is waited
 * out turn by turn.
 */
const EARLY_MS = 0.5

const WORKER = `
const { workerData, parentPort } = require('node:worker_threads')
const ctrl = new Int32Array(workerData, 0, 2) // [change count, stop]
const next = new Float64Array(workerData, 8, 1) // when to post, ms since the epoch; NaN: never
const now = () => performance.timeOrigin + performance.now()
while (Atomics.load(ctrl, 1) === 0) {
  const seen = Atomics.load(ctrl, 0)
  const at = next[0]
  if (Number.isNaN(at)) Atomics.wait(ctrl, 0, seen)
  else if (at > now()) Atomics.wait(ctrl, 0, seen, at - now())
  else {
    parentPort.postMessage(null)
    // Sleeps until the server has answered and set the next time.
    Atomics.wait(ctrl, 0, seen)
  }
}
`

/** Milliseconds since the epoch, comparable between threads (each has its own performance.now()). */
const now = () => performance.timeOrigin + performance.now()

interface Pending {
  due: number
  resolve: () => void
}

export class Waker {
  private readonly shared = new SharedArrayBuffer(16)
  private readonly ctrl = new Int32Array(this.shared, 0, 2)
  private readonly next = new Float64Array(this.shared, 8, 1)
  /** Waiting, earliest first (a fixed latency makes each new one the latest, so inserts append). */
  private readonly pending: Pending[] = []
  private worker: Worker | null = null
  private online: Promise<void> = Promise.resolve()
  private spinning = false

  /** Resolves at `due` (a performance.now() time of this thread), never before it. */
  at(due: number): Promise<void> {
    const abs = performance.timeOrigin + due
    if (abs <= now()) return Promise.resolve()
    return new Promise((resolve) => {
      let i = this.pending.length
      while (i > 0 && (this.pending[i - 1] as Pending).due > abs) i--
      this.pending.splice(i, 0, { due: abs, resolve })
      if (i === 0) this.wake()
    })
  }

  /**
   * Starts the worker ahead of the first reply (which would otherwise wait for its start-up) and
   * resolves once it runs.
   */
  start(): Promise<void> {
    if (this.worker === null) {
      const worker = new Worker(WORKER, { eval: true, workerData: this.shared })
      // Waiting replies keep the server's sockets open; the clock alone keeps nothing alive.
      worker.unref()
      worker.on('message', () => this.wake())
      this.worker = worker
      this.online = new Promise((resolve) => worker.once('online', () => resolve()))
    }
    return this.online
  }

  close(): Promise<void> {
    Atomics.store(this.ctrl, 1, 1)
    Atomics.add(this.ctrl, 0, 1)
    Atomics.notify(this.ctrl, 0)
    const w = this.worker
    this.worker = null
    return w ? w.terminate().then(() => undefined) : Promise.resolve()
  }

  /** Answers what is due, then waits out a due time this close turn by turn, or has the worker post. */
  private wake(): void {
    const t = now()
    let n = 0
    while (n < this.pending.length && (this.pending[n] as Pending).due <= t) n++
    for (const p of this.pending.splice(0, n)) p.resolve()
    const head = this.pending[0]
    if (head && head.due - t <= EARLY_MS) {
      if (!this.spinning) {
        this.spinning = true
        setImmediate(() => {
          this.spinning = false
          this.wake()
        })
      }
      return
    }
    this.next[0] = head ? head.due - EARLY_MS : Number.NaN
    Atomics.add(this.ctrl, 0, 1)
    Atomics.notify(this.ctrl, 0)
    if (head) void this.start()
  }
}
