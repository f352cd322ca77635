// The metrics' worker thread (backgroundWorker.ts): works out the Compare view's lists from the
// columns it is handed and sends them back. A separate entry of the app's build and the bench's.
import { parentPort } from 'node:worker_threads'
import type { WorkerJob } from './backgroundWorker'
import { computeLists, type ListsInput } from './compareLists'

// The job comes in the first message: the thread is started before its columns are ready.
parentPort?.once('message', (job: WorkerJob) => {
  try {
    parentPort?.postMessage({ answer: computeLists(job.input as ListsInput) })
  } catch (error) {
    parentPort?.postMessage({ problem: error instanceof Error ? error.message : String(error) })
  }
})
