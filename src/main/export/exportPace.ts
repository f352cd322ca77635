import { ServiceError } from '../app/errors'

/**
 * How a long export shares the process: between two batches of rows it lets every waiting
 * request be answered (the app's other calls, the export dialog's progress and its Cancel),
 * then stops if the person cancelled. An export reading the main connection (an in-memory
 * workspace) must not let anyone else in, since its open statements would refuse them: it only
 * checks for a cancel.
 */
export interface ExportPace {
  breathe(): Promise<void>
}

export const CANCELLED_MESSAGE = 'The export was cancelled: no file of it was left behind.'

export function exportPace(opts: { yields: boolean; signal?: AbortSignal | undefined }): ExportPace {
  const stopIfCancelled = () => {
    if (opts.signal?.aborted) throw new ServiceError('conflict', CANCELLED_MESSAGE)
  }
  return {
    async breathe() {
      if (opts.yields) await new Promise<void>((resolve) => setImmediate(resolve))
      stopIfCancelled()
    },
  }
}

/** Never waits, never stops: for callers without a person waiting (tests of the writers). */
export const UNPACED: ExportPace = { breathe: () => Promise.resolve() }
