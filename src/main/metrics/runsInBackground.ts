import type { Worker } from 'node:worker_threads'
import type { Db } from '../store/connection'
import { getDataset } from '../store/repos/datasets'
import { dataVersion } from '../store/version'
import { runFromParts } from '../verdicts/columns'
import { startWorker, type WorkerScript, workerScript } from './backgroundWorker'
import { noteSpan, type RunColumns } from './load'
import type { RunsRead } from './runsRead'
import { currentSnapshot, judgeRuns, provideRuns } from './snapshot'

/**
 * The Compare view's judge runs read on the second core while the first loads the targets and
 * labels: its first call starts a worker thread with a read-only connection of its own (WAL lets
 * it read beside the app's) that reads the targets and every run's columns (runsRead.ts), and
 * hands them back without copying. At a million targets that takes the runs' load (twenty
 * columns of a million targets, a sixth of a second and more) off the thread that answers.
 *
 * The runs are used only if the workspace's data did not change from the start of the read to
 * their use, as with the adjudication queue (labels/disputesInBackground.ts): the data version
 * taken before the worker starts is taken again once its runs are back, and any commit in
 * between moves it; the label and target blocks the main thread stores meanwhile are copies of
 * rows and do not count. Otherwise, or when the worker fails, the snapshot loads its runs itself.
 */

/** Below this many targets the runs load quickly enough on the app's own thread. */
export const BACKGROUND_FROM_TARGETS = 50_000

interface Pending {
  at: string
  datasetId: number
  runIds: number[]
  read: Promise<RunsRead | null>
  worker: Worker
}

const pending = new WeakMap<Db, Pending>()

/** Starts reading the dataset's runs in the background, unless its snapshot is loaded already or it is small. */
export function startRuns(
  db: Db,
  datasetId: number,
  fromTargets = BACKGROUND_FROM_TARGETS,
  script: WorkerScript | null = workerScript(),
): void {
  if (!script || db.memory || !db.open || currentSnapshot(db, datasetId)) return
  const targets =
    (db.prepare('SELECT targets FROM dataset_counts WHERE dataset_id = ?').pluck().get(datasetId) as
      | number
      | undefined) ?? 0
  if (targets < fromTargets) return
  const at = dataVersion(db)
  if (pending.get(db)?.at === at && pending.get(db)?.datasetId === datasetId) return
  const schema = getDataset(db, datasetId).labelSchema
  const runIds = judgeRuns(db, datasetId).map((r) => r.id)
  const started = startWorker(
    script,
    { job: 'runs', input: { file: db.name, datasetId, runIds, schema } },
    [],
  )
  if (!started) return
  pending.set(db, {
    at,
    datasetId,
    runIds,
    read: started.answer as Promise<RunsRead | null>,
    worker: started.worker,
  })
}

/**
 * Waits for a background read of the dataset's runs and hands them to its current snapshot if
 * the workspace is still as it was when the read started. Returns at once when none is running.
 */
export async function awaitRuns(db: Db, datasetId: number): Promise<void> {
  const p = pending.get(db)
  if (!p || p.datasetId !== datasetId) return
  p.worker.ref()
  const read = await p.read
  if (pending.get(db) === p) pending.delete(db)
  if (!read || !db.open || dataVersion(db) !== p.at) return
  const snapshot = currentSnapshot(db, datasetId)
  if (!snapshot || snapshot.t.ids.length !== read.targets) return
  const runs = judgeRuns(db, datasetId)
  if (runs.length !== p.runIds.length || runs.some((r, k) => r.id !== p.runIds[k])) return
  const columns = new Map<number, RunColumns>()
  for (const r of read.runs) {
    const run = runFromParts(r, snapshot.t, snapshot.coder)
    noteSpan(run, r.span)
    columns.set(r.id, run)
  }
  provideRuns(snapshot, { runs, columns })
}
