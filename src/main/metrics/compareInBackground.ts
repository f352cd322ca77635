import type { Worker } from 'node:worker_threads'
import type { Db } from '../store/connection'
import type { DatasetAgreement } from './agreementService'
import { type StartedWorker, spawnWorker, type WorkerScript, workerScript } from './backgroundWorker'
import type { AgreementInput, ListsInput } from './compareLists'
import { annotatorNames, keepAgreement, sourceIds } from './datasetAgreement'
import { type BackgroundLists, backgroundLists, keepLists } from './keptLists'
import { runSpanColumns } from './load'
import { labelTimes, latestLabelTimes, NARROWING_POINTS } from './narrowing'
import { currentSnapshot, datasetSnapshot, isMemoised, type Snapshot } from './snapshot'
import { BACKGROUND_FROM_TARGETS, targetCount } from './snapshotInBackground'

/**
 * The Compare view's lists of a large dataset (the narrowing chart, label-next, the
 * disagreements) worked out on the second core while its figures take the first: once its first
 * call has loaded the snapshot, a worker thread is handed that snapshot's columns (copies) and
 * works the lists out with the same code the main thread runs (compareLists.ts). At a million
 * targets that takes a quarter of a second off the thread that answers the view.
 *
 * The lists are kept with the snapshot they were worked out from (keptLists.ts), and a snapshot
 * serves only while the workspace is unchanged: after any change the next call has a new one,
 * and a worker still busy with the old one is stopped and its lists dropped. A worker that cannot
 * start or fails leaves the lists to the main thread, as without it.
 */

interface Pending {
  snapshot: Snapshot
  /** The agreement figures, when the worker was handed them (null: not handed, or no answer). */
  agreement: Promise<DatasetAgreement | null> | null
  lists: Promise<BackgroundLists | null>
  worker: Worker
}

const pending = new WeakMap<Db, Pending>()

/**
 * Starts working out the lists of the dataset's current snapshot (loading it if need be) in the
 * background, unless they are kept or being worked out already, or the dataset is small. The
 * agreement figures of a categorical dataset go first, handed over as soon as the labels are read
 * (before the runs are), unless the snapshot holds them already: the view's figures wait for them
 * while this thread works out the judges' and the humans' figures.
 */
export function startCompareLists(
  db: Db,
  datasetId: number,
  fromTargets = BACKGROUND_FROM_TARGETS,
  script: WorkerScript | null = workerScript(),
): void {
  // A cold view of a large dataset whose snapshot is not loaded yet (see snapshotInBackground.ts):
  // the worker's thread starts now, on the second core, while this one loads the snapshot (a third
  // of a second at a million targets), and waits for its job.
  const early =
    script && currentSnapshot(db, datasetId) === null && targetCount(db, datasetId) >= fromTargets
      ? spawnWorker(script)
      : null
  let snapshot: Snapshot | null = null
  let input: ListsInput | null = null
  let started: StartedWorker | null = null
  let agreement: Promise<DatasetAgreement | null> | null = null
  try {
    snapshot = wanted(db, datasetId, fromTargets)
    if (snapshot && script) {
      const p = pending.get(db)
      if (p) stop(db, p)
      started = early ?? spawnWorker(script)
      const job = started && agreementInput(db, datasetId, snapshot)
      if (started && job)
        agreement = started.send({ job: 'agreement', input: job }, []) as Promise<DatasetAgreement | null>
      if (started) input = listsInput(snapshot)
    }
  } finally {
    // Not wanted after all (or the read failed): the thread is never handed its lists.
    if (early && input === null) void early.worker.terminate()
    if (started && started !== early && input === null) void started.worker.terminate()
  }
  if (!snapshot) return
  const p = pending.get(db)
  if (p) stop(db, p)
  if (!started || !input) return
  // The runs' copies and the label times are made for the worker: handed over, not copied again
  // (columns on shared memory are shared, not handed over).
  const lists = started.send({ job: 'lists', input }, [
    ...input.runs.flatMap((r) => [r.status.buffer, r.bin.buffer]).filter((b) => b instanceof ArrayBuffer),
    ...(input.latest ? [input.latest.buffer] : []),
  ]) as Promise<BackgroundLists | null>
  pending.set(db, { snapshot, agreement, lists, worker: started.worker })
}

/**
 * Waits for the agreement figures the worker was handed (if any) and keeps them with the
 * dataset's current snapshot, as datasetAgreement would compute them. Returns at once when none
 * are being worked out; drops figures of a snapshot no longer current.
 */
export async function awaitCompareAgreement(db: Db, datasetId: number): Promise<void> {
  const p = pending.get(db)
  if (!p?.agreement) return
  if (currentSnapshot(db, datasetId) !== p.snapshot) return stop(db, p)
  p.worker.ref()
  const figures = await p.agreement
  if (pending.get(db) === p) {
    p.worker.unref()
    p.agreement = null
  }
  if (figures && currentSnapshot(db, datasetId) === p.snapshot && !isMemoised(db, datasetId, 'agreement'))
    keepAgreement(db, datasetId, figures)
}

/**
 * Waits for the background lists of the dataset's current snapshot and keeps them with it.
 * Returns at once when none are being worked out; drops lists of a snapshot no longer current.
 */
export async function awaitCompareLists(db: Db, datasetId: number): Promise<void> {
  const p = pending.get(db)
  if (!p) return
  if (currentSnapshot(db, datasetId) !== p.snapshot) return stop(db, p)
  p.worker.ref()
  const lists = await p.lists
  if (pending.get(db) === p) pending.delete(db)
  if (lists) keepLists(p.snapshot, lists)
}

function stop(db: Db, p: Pending): void {
  if (pending.get(db) === p) pending.delete(db)
  void p.worker.terminate()
}

/**
 * The agreement job of a snapshot: its label columns (on shared memory, so posting them copies
 * nothing: sharedColumns.ts) and the annotators' names. Null when the snapshot holds the figures
 * already or the labels are numeric (their figures come from a matrix of strings, worked out on
 * this thread as before).
 */
function agreementInput(db: Db, datasetId: number, { t }: Snapshot): AgreementInput | null {
  if (t.schema.type === 'numeric' || isMemoised(db, datasetId, 'agreement')) return null
  const { start, annotator, code, values, annotatorIds } = t.human
  return {
    columns: {
      human: { start, annotator, code, values, annotatorIds },
      labels: t.labels,
      variant: t.variant,
      variants: t.variants,
      ids: { length: t.ids.length },
    },
    names: annotatorNames(db),
    sources: sourceIds(db),
  }
}

/**
 * The worker's input from a snapshot: the runs' span columns (those on shared memory as they are,
 * the others copied: a view into a full-length column would post the whole of it), the label
 * times worked out.
 */
function listsInput({ t, runs, columns }: Snapshot): ListsInput {
  const rows = labelTimes({ t })
  return {
    latest: rows ? latestLabelTimes(t, rows) : null,
    goldBin: t.goldBin,
    stored: t.stored,
    variant: t.variant,
    runs: runs.map((r) => {
      const { from, status, bin } = runSpanColumns(columns.get(r.id)!)
      return {
        id: r.id,
        model: r.model,
        method: r.method,
        repeat_index: r.repeat_index,
        mode: r.mode,
        answered_calls: r.answered_calls,
        batch_calls: r.batch_calls,
        from,
        status: onShared(status),
        bin: onShared(bin),
      }
    }),
  }
}

/**
 * The dataset's current snapshot (loaded if need be) when its lists are to be worked out in the
 * background: a large dataset, lists neither kept nor worked out by the main thread already, nor
 * being worked out for this snapshot.
 */
function wanted(db: Db, datasetId: number, fromTargets: number): Snapshot | null {
  const snapshot = datasetSnapshot(db, datasetId)
  if (snapshot.t.ids.length < fromTargets || backgroundLists(snapshot)) return null
  // Lists the main thread worked out already (the view's lists asked for first) are kept.
  if (isMemoised(db, datasetId, `narrowing:${NARROWING_POINTS}`)) return null
  return pending.get(db)?.snapshot === snapshot ? null : snapshot
}

/** The column itself when it lies on shared memory (nothing writes it once loaded), else a copy. */
function onShared<T extends Uint8Array | Int8Array>(column: T): T {
  return column.buffer instanceof SharedArrayBuffer ? column : (column.slice() as T)
}
