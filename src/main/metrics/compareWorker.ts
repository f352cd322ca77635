// The metrics' worker thread (backgroundWorker.ts): works out the Compare view's agreement figures
// and lists from the columns it is handed and sends them back. A separate entry of the app's
// build and the bench's.
import { parentPort } from 'node:worker_threads'
import type { WorkerJob, WorkerReply } from './backgroundWorker'
import { type AgreementInput, agreementOfInput, computeLists, type ListsInput } from './compareLists'

// The jobs come in messages, the agreement (if any) before the lists: the thread is started before
// their columns are ready. The lists are the last job: the thread ends after them.
const onJob = (job: WorkerJob) => {
  let reply: WorkerReply
  try {
    const answer =
      job.job === 'agreement'
        ? agreementOfInput(job.input as AgreementInput)
        : computeLists(job.input as ListsInput)
    reply = { job: job.job, answer }
  } catch (error) {
    reply = { job: job.job, problem: error instanceof Error ? error.message : String(error) }
  }
  if (job.job === 'lists') parentPort?.off('message', onJob)
  parentPort?.postMessage(reply)
}
parentPort?.on('message', onJob)
