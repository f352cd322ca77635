import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'

/**
 * The metrics' worker thread (compareWorker.ts), started for one job: the Compare view's lists
 * (compareInBackground.ts). Its answer is null when it cannot start, fails or stops, which leaves
 * the work to the main thread as without it.
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

export function startWorker(
  script: WorkerScript,
  job: WorkerJob,
  transferList: ArrayBuffer[],
): { answer: Promise<unknown>; worker: Worker } | null {
  let worker: Worker
  try {
    worker = new Worker(script.url, {
      workerData: job,
      transferList,
      ...(script.execArgv ? { execArgv: script.execArgv } : {}),
    })
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
  return { answer, worker }
}
