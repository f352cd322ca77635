import type { Worker } from 'node:worker_threads'

/**
 * The answer of a worker thread that posts one message: `read` turns it into the answer (null:
 * the worker had none), and a worker that fails or exits first answers null, which leaves its work
 * to the app's thread.
 */
export function workerAnswer<M, T>(worker: Worker, read: (message: M) => T | null): Promise<T | null> {
  return new Promise((resolve) => {
    let settled = false
    const settle = (answer: T | null) => {
      if (settled) return
      settled = true
      resolve(answer)
    }
    worker.once('message', (m: M) => settle(read(m)))
    worker.once('error', () => settle(null))
    worker.once('exit', () => settle(null))
  })
}
