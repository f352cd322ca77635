import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'

/**
 * The metrics' worker thread (compareWorker.ts), started for one job: the Compare view's lists
 * (compareInBackground.ts), handed to it in a message once ready. Its answer is null when it
 * cannot start, fails or stops, which leaves the work to the main thread as without it.
 */

export interface WorkerScript {
  url: URL
  execArgv?: string[]
}

/**
 * The worker's script: the bundled compareWorker.js beside the bundle (the app's and the bench's
 * builds make it an entry of its own, next to their entries or one folder above their chunks),
 * or, run from the TypeScript source (tests, the CLI through tsx), compareWorker.ts through tsx.
 */
export function workerScript(): WorkerScript | null {
  const here = import.meta.url
  if (here.endsWith('.ts')) return { url: new URL('./compareWorker.ts', here), execArgv: ['--import', 'tsx'] }
  const url = ['./compareWorker.js', '../compareWorker.js']
    .map((name) => new URL(name, here))
    .find((u) => existsSync(fileURLToPath(u)))
  return url ? { url } : null
}

export type WorkerJob = { job: 'lists'; input: unknown }

/** A started worker: its answer, and how it is handed its job. */
export interface StartedWorker {
  answer: Promise<unknown>
  worker: Worker
  /** Hands the worker its job (the buffers listed are moved, not copied). */
  send(job: WorkerJob, transferList: ArrayBuffer[]): void
}

/**
 * Starts the worker before its job is ready: its thread and script load on the second core while
 * this thread still reads what the job needs, and it waits for the job (`send`).
 */
export function spawnWorker(script: WorkerScript): StartedWorker | null {
  let worker: Worker
  try {
    worker = new Worker(script.url, script.execArgv ? { execArgv: script.execArgv } : {})
  } catch {
    return null
  }
  const answer = new Promise<unknown>((resolve) => {
    let settled = false
    const settle = (value: unknown) => {
      if (settled) return
      settled = true
      resolve(value)
    }
    worker.once('message', (m: { answer: unknown } | { problem: string }) =>
      settle('answer' in m ? m.answer : null),
    )
    worker.once('error', () => settle(null))
    worker.once('exit', () => settle(null))
  })
  // Not holding the process open: a CLI asking for the figures alone exits without waiting.
  worker.unref()
  return {
    answer,
    worker,
    send(job, transferList) {
      // A worker that has already failed has its answer (null): the message goes nowhere.
      worker.postMessage(job, transferList)
    },
  }
}

export function startWorker(
  script: WorkerScript,
  job: WorkerJob,
  transferList: ArrayBuffer[],
): StartedWorker | null {
  const started = spawnWorker(script)
  started?.send(job, transferList)
  return started
}
