import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'

/**
 * The metrics' worker thread (compareWorker.ts), started for one cold Compare view
 * (compareInBackground.ts): the agreement figures and the lists, each handed to it in a message
 * once ready. An answer is null when it cannot start, fails or stops, which leaves that work to
 * the main thread as without it.
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

/** The worker's jobs: the agreement figures (handed over first, as soon as the labels are read) and the lists. */
export type JobName = 'agreement' | 'lists'
export type WorkerJob = { job: JobName; input: unknown }
/** What the worker sends back for a job: its answer, or why it has none. */
export type WorkerReply = { job: JobName } & ({ answer: unknown } | { problem: string })

/** A started worker, and how it is handed its jobs. */
export interface StartedWorker {
  worker: Worker
  /**
   * Hands the worker a job (the buffers listed are moved, not copied). Its answer, null when the
   * worker cannot do it, fails or stops first.
   */
  send(job: WorkerJob, transferList: ArrayBuffer[]): Promise<unknown>
}

/**
 * Starts the worker before its jobs are ready: its thread and script load on the second core while
 * this thread still reads what the jobs need, and it waits for them (`send`).
 */
export function spawnWorker(script: WorkerScript): StartedWorker | null {
  let worker: Worker
  try {
    worker = new Worker(script.url, script.execArgv ? { execArgv: script.execArgv } : {})
  } catch {
    return null
  }
  const waiting = new Map<JobName, (value: unknown) => void>()
  let over = false
  const fail = () => {
    over = true
    for (const settle of waiting.values()) settle(null)
    waiting.clear()
  }
  worker.on('message', (m: WorkerReply) => {
    const settle = waiting.get(m.job)
    waiting.delete(m.job)
    settle?.('answer' in m ? m.answer : null)
  })
  worker.once('error', fail)
  worker.once('exit', fail)
  // Not holding the process open: a CLI asking for the figures alone exits without waiting.
  worker.unref()
  return {
    worker,
    send(job, transferList) {
      // A worker that has already failed has no answer to give: the message goes nowhere.
      if (over) return Promise.resolve(null)
      const answer = new Promise<unknown>((resolve) => waiting.set(job.job, resolve))
      worker.postMessage(job, transferList)
      return answer
    },
  }
}
