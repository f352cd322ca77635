import type { CategoricalLabelSchema } from '../../shared/labelSchemas'
import type { StoredExtra } from '../labels/blockExtras'
import { BLOCK_SIZE } from '../labels/blocks'
import { blocksRead, readBlocksInBackground } from '../labels/blocksInBackground'
import type { Db } from '../store/connection'
import { getDataset } from '../store/repos/datasets'
import { countCacheWrites } from '../store/version'
import { indexOfIds, verdictCoder } from './load'
import { CODE_SPAN } from './packing'
import { snapshotRunCosts } from './runInfo'
import { currentSnapshot, type LoadedRuns, loadJudgeRuns, loadSnapshotFrom } from './snapshot'
import { TARGET_BLOCK } from './targetBlocks'
import { readTargetRows } from './targetRows'

/** Below this many targets a cold view (its load, its lists) is quick enough on the app's own thread alone. */
export const BACKGROUND_FROM_TARGETS = 50_000

/**
 * The cold load of a large dataset's snapshot (the Agreement and Compare views' first call) on
 * two cores: a worker thread reads the stored label blocks (labels/blocksInBackground.ts) while
 * this thread reads the dataset's target rows, the two halves of the load that need nothing from
 * each other; this thread then builds the snapshot from both. At a million targets each half is
 * about a third of a second.
 *
 * Nothing is loaded (false) when the snapshot is kept already, the dataset is small or its labels
 * numeric, or the workspace changed while the blocks were read: the view's call then loads it as
 * before. A failure here is never the view's: the same read fails again on the app's thread and
 * says why there.
 */
export async function loadSnapshotEarly(
  db: Db,
  datasetId: number,
  {
    fromTargets = BACKGROUND_FROM_TARGETS,
    withTimes = false,
    withRuns = false,
  }: {
    fromTargets?: number
    /**
     * The view reads the judge runs at once (the Compare view): they need only the target rows,
     * so this thread loads them while the worker is still reading the label blocks (at a million
     * targets it would otherwise wait for them).
     */
    withRuns?: boolean
    /**
     * The view reads the labels' seconds and times at once (the Compare view's active time and
     * chart): the worker reads the blocks' extras after the blocks, while this thread builds the
     * snapshot, and the load waits for them. Without, they are read if and when asked for.
     */
    withTimes?: boolean
  } = {},
): Promise<boolean> {
  try {
    if (currentSnapshot(db, datasetId) !== null || targetCount(db, datasetId) < fromTargets) return false
    // Numeric labels are not kept in blocks (labels/columns.ts reads them row by row).
    const schema = getDataset(db, datasetId).labelSchema
    if (schema.type !== 'categorical' || schema.values.length >= CODE_SPAN) return false
    // The dataset's blocks, from the target blocks' list of datasets (the targets' own index
    // would scan the table).
    const [lo, hi] = db
      .prepare('SELECT MIN(block), MAX(block) FROM target_blocks WHERE instr(datasets, ?) > 0')
      .raw()
      .get(`,${datasetId},`) as [number | null, number | null]
    if (lo === null || hi === null) return false
    const read = readBlocksInBackground(
      db,
      Math.floor((lo * TARGET_BLOCK) / BLOCK_SIZE),
      Math.floor(((hi + 1) * TARGET_BLOCK - 1) / BLOCK_SIZE),
      withTimes,
    )
    if (!read) return false
    const rows = readTargetRows(db, datasetId, false)
    const indexOf = indexOfIds(rows.ids)
    const runs = withRuns ? runsBeforeLabels(db, datasetId, schema, rows.ids, indexOf) : undefined
    const labelBlocks = await blocksRead(db, read)
    // A change meanwhile, or a call that loaded the snapshot first: nothing to add.
    if (!labelBlocks || currentSnapshot(db, datasetId) !== null) return false
    // The extras carry their blocks' stamps: whenever they come, they serve only those blocks.
    let extras: StoredExtra[] | null = null
    void read.extras.then((e) => {
      extras = e
    })
    loadSnapshotFrom(db, datasetId, {
      rows,
      indexOf,
      labelBlocks: { rows: labelBlocks, extras: () => extras },
      ...(runs ? { runs } : {}),
    })
    // There when the view's call first asks for seconds or times (without them, read then).
    if (withTimes) await read.extras
    return true
  } catch {
    // Left to the view's call, which reads the same on the app's thread.
    return false
  }
}

/**
 * The judge runs over the target rows, and their costs, before the labels are read. Their columns may be stored on
 * the way (verdict columns, a cache of the verdicts): counted as cache writes, so the label
 * blocks read meanwhile still serve. Anything else that changes the workspace before the blocks
 * come voids the whole load, these runs with it (blocksRead).
 */
function runsBeforeLabels(
  db: Db,
  datasetId: number,
  schema: CategoricalLabelSchema,
  ids: Int32Array,
  indexOf: Int32Array,
): LoadedRuns {
  const labels = [...schema.values]
  const before = ownChanges(db)
  const runs = loadJudgeRuns(db, datasetId, { ids, indexOf, labels, schema }, verdictCoder(schema, labels))
  countCacheWrites(db, ownChanges(db) - before)
  // Their calls, tokens and money too, which the figures read (reads only).
  snapshotRunCosts(db, runs.runs)
  return runs
}

const ownChanges = (db: Db) => db.prepare('SELECT total_changes()').pluck().get() as number

/** The dataset's current targets as the triggers count them (controls too): read without loading any. */
export function targetCount(db: Db, datasetId: number): number {
  return (
    (db.prepare('SELECT targets FROM dataset_counts WHERE dataset_id = ?').pluck().get(datasetId) as
      | number
      | undefined) ?? 0
  )
}
