import Database from 'better-sqlite3'
import type { LabelSchema } from '../../shared/labelSchemas'
import { type LoadTargets, loadRuns, type RunParts, runParts } from '../verdicts/columns'
import { indexOfIds, runSpan, verdictCoder } from './load'
import { readTargetRows } from './targetRows'

/**
 * A dataset's judge runs read on a read-only connection of its own (a worker thread's,
 * runsInBackground.ts): the current targets (without controls), then each run's columns as
 * loadRuns gives them, in one read transaction, as plain arrays with each run's span.
 */
export interface RunsRead {
  targets: number
  runs: (RunParts & { id: number; span: [number, number] })[]
}

export function readRuns(
  file: string,
  datasetId: number,
  runIds: readonly number[],
  schema: LabelSchema,
): RunsRead {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    db.pragma('busy_timeout = 5000')
    return db.transaction(() => {
      const { ids } = readTargetRows(db, datasetId, false)
      const labels = schema.type === 'categorical' ? [...schema.values] : []
      const t: LoadTargets = { ids, indexOf: indexOfIds(ids), labels, schema }
      const columns = loadRuns(db, runIds, t, verdictCoder(schema, labels))
      return {
        targets: ids.length,
        runs: runIds.map((id) => {
          const run = columns.get(id)!
          return { id, ...runParts(run, t), span: runSpan(run) }
        }),
      }
    })()
  } finally {
    db.close()
  }
}
