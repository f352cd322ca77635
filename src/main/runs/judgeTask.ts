import { schemaFit, toSchemaWords } from '../judges/schemaFit'
import type { CandidateTask, JudgeContext, JudgeMethodImpl, VerdictOutcome } from '../judges/types'
import type { Db } from '../store/connection'
import { getDataset } from '../store/repos/datasets'
import { accountFor, allFailed } from './accounting'
import { RunFatal, RunStopped } from './caller'
import type { RunRecord } from './repo'

export type ToWords = (outcomes: VerdictOutcome[]) => VerdictOutcome[]

/**
 * How a run's verdicts are put in its dataset's label-schema words (see judges/schemaFit.ts);
 * a method that cannot answer in that schema stops the run before any call.
 */
export function schemaWords(db: Db, run: Pick<RunRecord, 'datasetId' | 'method'>): ToWords {
  const labelSchema = getDataset(db, run.datasetId).labelSchema
  const fit = schemaFit(run.method, labelSchema)
  if (!fit.ok) throw new RunFatal(fit.reason)
  return (outcomes) => toSchemaWords(fit, labelSchema, outcomes)
}

/**
 * One candidate through a method: exactly one outcome per target, and a method that throws
 * turns into an error on each of its targets. Stops (pause, cancel, a fatal failure) pass
 * through. Shared by the call-by-call engine and the batch driver, so both judge alike.
 */
export async function judgeTask(
  method: JudgeMethodImpl,
  task: CandidateTask,
  ctx: JudgeContext,
  words: ToWords = (o) => o,
): Promise<VerdictOutcome[]> {
  try {
    return accountFor(task.targets, words(await method.judge(task, ctx)))
  } catch (error) {
    if (error instanceof RunStopped || error instanceof RunFatal) throw error
    const message = error instanceof Error ? error.message : String(error)
    return allFailed(task.targets, `the ${method.name} method failed: ${message}`)
  }
}
