import type { Dataset } from '../../shared/domain'
import type { Db } from '../store/connection'
import { getDataset } from '../store/repos/datasets'
import { workspaceVersion } from '../store/version'
import { type LoadTargets, loadRuns } from '../verdicts/columns'
import { runHasVerdicts } from '../verdicts/sql'
import {
  type Coder,
  loadTargets,
  type ReadAlready,
  type RunColumns,
  type TargetColumns,
  verdictCoder,
} from './load'

/**
 * The loaded columns of one dataset, shared by the Compare view's calls (figures, disagreements,
 * label-next) so opening the view reads the verdicts once. A snapshot is reused only while the
 * workspace is unchanged: any write through this connection moves `total_changes()`, and a
 * commit from another process (a CLI judge run) moves `data_version`.
 */
export interface RunRow {
  id: number
  kind: string
  provider: string
  model: string
  method: string
  status: string
  repeat_index: number
  /** Call by call or through the provider's batch API (from the frozen config; imported runs: sync). */
  mode: 'sync' | 'batch'
  /**
   * For runs that sent a provider batch: the calls a provider answered and, of them, those a
   * batch answered (what the run's name says about its price). 0 and 0 for every other run,
   * whose calls are not counted here.
   */
  answered_calls: number
  batch_calls: number
  /** The config frozen into the run: what it ran (runIdentity.ts), never the editable config. */
  config: string
  error: string | null
}

export interface Snapshot {
  dataset: Dataset
  t: TargetColumns
  coder: Coder
  runs: RunRow[]
  columns: Map<number, RunColumns>
}

export { runLabel } from './runLabel'

/** Judge runs of a dataset that carry verdicts: finished, or partly done (n says how far). */
export function judgeRuns(db: Db, datasetId: number): RunRow[] {
  return db
    .prepare(
      `SELECT id, kind, provider, model, method, status, repeat_index,
         CASE WHEN json_extract(config, '$.mode') = 'batch' THEN 'batch' ELSE 'sync' END AS mode, config, error,
         CASE WHEN EXISTS (SELECT 1 FROM run_batches b WHERE b.run_id = runs.id) THEN (
           SELECT COUNT(*) FROM run_calls c WHERE c.run_id = runs.id AND c.cached = 0 AND c.status = 'done')
         ELSE 0 END AS answered_calls,
         CASE WHEN EXISTS (SELECT 1 FROM run_batches b WHERE b.run_id = runs.id) THEN (
           SELECT COUNT(*) FROM run_calls c WHERE c.run_id = runs.id AND c.cached = 0 AND c.status = 'done' AND c.via_batch = 1)
         ELSE 0 END AS batch_calls
       FROM runs
       WHERE dataset_id = ? AND kind IN ('judge', 'imported') AND status NOT IN ('queued')
         AND ${runHasVerdicts('runs.id')} ORDER BY id`,
    )
    .all(datasetId) as RunRow[]
}

export { workspaceVersion }

interface Entry {
  key: string
  snapshot: Snapshot
  memo: Map<string, unknown>
}

const cache = new WeakMap<Db, Entry>()

const ownChanges = (db: Db) => db.prepare('SELECT total_changes()').pluck().get() as number

/** The kept entry, while the workspace is as it was when it was loaded. */
function kept(db: Db, datasetId: number, includeControls: boolean): Entry | null {
  const hit = cache.get(db)
  return hit && hit.key === `${workspaceVersion(db)}:${datasetId}:${includeControls}` ? hit : null
}

function entry(db: Db, datasetId: number, includeControls = false): Entry {
  return kept(db, datasetId, includeControls) ?? load(db, datasetId, includeControls, {})
}

/** A snapshot's judge runs and their loaded columns. */
export type LoadedRuns = Pick<Snapshot, 'runs' | 'columns'>

/**
 * What was read already while nothing changed (snapshotInBackground.ts): the target rows, the
 * label blocks, and the judge runs, which need the target rows alone.
 */
export type SnapshotReads = ReadAlready & { runs?: LoadedRuns }

/** Loads the dataset's snapshot (controls left out) from what was read already while nothing changed. */
export function loadSnapshotFrom(db: Db, datasetId: number, read: SnapshotReads): Snapshot {
  return load(db, datasetId, false, read).snapshot
}

/** The dataset's judge runs with their columns, over its targets (their rows are all it takes). */
export function loadJudgeRuns(db: Db, datasetId: number, t: LoadTargets, coder: Coder): LoadedRuns {
  const runs = judgeRuns(db, datasetId)
  const columns = loadRuns(
    db,
    runs.map((r) => r.id),
    t,
    coder,
  )
  return { runs, columns }
}

/** Loads the dataset's snapshot and keeps it as the connection's entry. */
function load(db: Db, datasetId: number, includeControls: boolean, read: SnapshotReads): Entry {
  const others = db.pragma('data_version', { simple: true }) as number
  const dataset = getDataset(db, datasetId)
  const t = loadTargets(db, datasetId, dataset.labelSchema, includeControls, read)
  const coder = verdictCoder(dataset.labelSchema, t.labels)
  const fresh: Entry = {
    key: `${ownChanges(db)}:${others}:${datasetId}:${includeControls}`,
    snapshot: lazyRuns(db, datasetId, { dataset, t, coder }, () => fresh, read.runs ?? null),
    memo: new Map<string, unknown>(),
  }
  cache.set(db, fresh)
  return fresh
}

/**
 * The judge runs are read on first use (unless `read` already): the Agreement view needs the labels only. Loading them
 * may store verdict columns (a cache of the verdicts), which moves this connection's change
 * count; the entry's key moves with it so the snapshot stays in use.
 */
function lazyRuns(
  db: Db,
  datasetId: number,
  base: Omit<Snapshot, 'runs' | 'columns'>,
  owner: () => Entry,
  read: LoadedRuns | null,
): Snapshot {
  let loaded = read
  const load = () => {
    if (loaded) return loaded
    const before = ownChanges(db)
    loaded = loadJudgeRuns(db, datasetId, base.t, base.coder)
    const e = owner()
    const [own, ...rest] = e.key.split(':')
    if (Number(own) === before) e.key = [ownChanges(db), ...rest].join(':')
    return loaded
  }
  const snapshot: Snapshot = {
    ...base,
    get runs() {
      return load().runs
    },
    get columns() {
      return load().columns
    },
  }
  return snapshot
}

export function datasetSnapshot(db: Db, datasetId: number): Snapshot {
  return entry(db, datasetId).snapshot
}

/** The snapshot kept for the dataset if the workspace has not changed since it was loaded, else null (nothing is loaded). */
export function currentSnapshot(db: Db, datasetId: number): Snapshot | null {
  return kept(db, datasetId, false)?.snapshot ?? null
}

/** Whether the current snapshot holds a result of this name already (nothing is loaded). */
export function isMemoised(db: Db, datasetId: number, name: string): boolean {
  return kept(db, datasetId, false)?.memo.has(name) ?? false
}

/** A result derived from the current snapshot, computed once per workspace version. */
export function memoised<T>(
  db: Db,
  datasetId: number,
  name: string,
  compute: (s: Snapshot) => T,
  includeControls = false,
): T {
  const e = entry(db, datasetId, includeControls)
  if (e.memo.has(name)) return e.memo.get(name) as T
  const value = compute(e.snapshot)
  e.memo.set(name, value)
  return value
}
