import { BLOCK_SIZE } from '../labels/blocks'
import { blocksRead, readBlocksInBackground } from '../labels/blocksInBackground'
import { BACKGROUND_FROM_TARGETS, targetCount } from '../metrics/snapshotInBackground'
import { readTargetBlockParts, TARGET_BLOCK } from '../metrics/targetBlocks'
import type { Db } from '../store/connection'
import { besidesLabels } from './dashboardColumns'
import { dashboardLabels, dashboardLabelsKept } from './dashboardLabels'
import { getPlan } from './plan'

/**
 * The cold Project view of a large dataset on two cores, as the Agreement view's cold load
 * (metrics/snapshotInBackground.ts): a worker thread reads the dataset's stored label blocks on a
 * connection of its own (labels/blocksInBackground.ts) while this thread reads the target
 * blocks; the pass then reads both, and its figures are kept for the view's call. At a million
 * targets the label blocks are 47 MB, most of whose read time on a virtual machine is the page
 * faults of memory touched for the first time, which the worker's thread then takes.
 *
 * Nothing is done when the figures are kept already, the dataset is small, or the workspace
 * changed while the blocks were read (they are then not used): the view's call reads them as
 * before. A failure here is never the view's: the same read fails again there and says why.
 */
export async function readDashboardEarly(
  db: Db,
  datasetId: number,
  fromTargets = BACKGROUND_FROM_TARGETS,
): Promise<void> {
  try {
    if (dashboardLabelsKept(db, datasetId) || targetCount(db, datasetId) < fromTargets) return
    // The dataset's blocks, from the target blocks' list of datasets (the targets' own index
    // would scan the table).
    const [lo, hi] = db
      .prepare('SELECT MIN(block), MAX(block) FROM target_blocks WHERE instr(datasets, ?) > 0')
      .raw()
      .get(`,${datasetId},`) as [number | null, number | null]
    if (lo === null || hi === null) return
    const read = readBlocksInBackground(
      db,
      Math.floor((lo * TARGET_BLOCK) / BLOCK_SIZE),
      Math.floor(((hi + 1) * TARGET_BLOCK - 1) / BLOCK_SIZE),
    )
    if (!read) return
    const plan = getPlan(db, datasetId)
    const targets = readTargetBlockParts(db, datasetId)
    if (!targets) return
    // Read while the worker reads the labels (on two cores, instead of waiting for it): the
    // version check below covers them too, as they were read after the worker started.
    const besides = besidesLabels(db, datasetId, plan.policy === 'fixed', targets)
    const labelBlocks = await blocksRead(db, read)
    // A change meanwhile, or a call that read them first: nothing to add.
    if (!labelBlocks || dashboardLabelsKept(db, datasetId)) return
    dashboardLabels(db, datasetId, plan, { targets, labelBlocks, besides })
  } catch {
    // Left to the view's call, which reads the same on the app's thread.
  }
}
