import { RunFatal } from '../runs/caller'
import { type BatchDriverOptions, startDrive } from './drive'
import { pass } from './pass'
import { listBatches } from './repo'
import { settle } from './settle'
import { submitNew } from './submit'

/**
 * A judge run through a provider's batch API. The method runs over every unjudged candidate
 * with a `call` that answers from the run's finished calls and the response cache and defers
 * everything else; the deferred requests (the very bodies a synchronous run sends) go out in
 * batches split by the provider's limits; their results become the run's calls; and the method
 * runs again, writing verdicts for candidates whose calls are all answered and deferring any
 * follow-up calls (repairs, DCR's second step) to the next round.
 *
 * Every step is recorded before the next begins (see migration 0090), so a driver started on a
 * run that was killed anywhere first brings its open batches to an end, never sending a request
 * that is already in a batch and never dropping a result already read.
 */
export async function runBatchJudge(o: BatchDriverOptions): Promise<void> {
  const d = startDrive(o)
  await settle(d)
  for (;;) {
    const { toSubmit, blocked } = await pass(d)
    // Verdicts of everything answered are written first; what expired or was cancelled waits
    // for the person to resume (a batch cancelled on purpose is not sent again by itself).
    if (d.unfinished.length > 0)
      throw new RunFatal(
        `${d.unfinished.join('; ')} ended without a result; judge resume ${o.run.id} sends them in a new batch (or --mode sync calls them one by one)`,
      )
    if (toSubmit.size === 0 && blocked === 0) return
    if (toSubmit.size === 0 && listBatches(o.db, o.run.id).every((b) => b.state === 'ingested'))
      throw new RunFatal('calls wait for a batch that no longer exists; resume the run to send them again')
    await submitNew(d, toSubmit)
    await settle(d)
  }
}

/**
 * A batch run resumed call by call: its batches (cancelled by `cancelOpenBatches`) are brought
 * to an end and their answers read before any call goes out, so none is sent twice.
 */
export async function settleBeforeSync(o: BatchDriverOptions): Promise<void> {
  await settle(startDrive(o), false)
}
