import { BLOCK_SIZE, blockParts, type LabelRowsColumns, type StoredBlock } from '../labels/blocks'
import { adjudicatedGold, labelColumnsOf, sourceIds } from '../labels/projectReads'
import { CONTROL, CURRENT, readTargetBlockParts, TARGET_BLOCK } from '../metrics/targetBlocks'
import type { Db } from '../store/connection'
import { readAssignments } from './assignmentsPacked'
import { candidateVariants } from './candidateVariants'
import { controlAnswersOf } from './controls'
import { BLOCK, type LabelSegment, type TallyLabels, type TargetPart } from './dashboardBlocks'
import type { TallyInput } from './dashboardTally'

// The pass pairs each block of labels with the block of targets of the same number.
if (BLOCK_SIZE !== BLOCK || TARGET_BLOCK !== BLOCK)
  throw new Error('label and target blocks must span the same ids')

/** What was read already while nothing changed (dashboardInBackground.ts). */
export interface DashboardRead {
  targets?: readonly TargetPart[]
  /** the dataset's label blocks, read by a worker */
  labelBlocks?: readonly StoredBlock[] | null
  /** what the pass reads besides the targets and labels, read while the worker read the labels */
  besides?: BesidesLabels
}

/** What the pass reads besides the targets and the labels. */
export type BesidesLabels = Pick<TallyInput, 'variants' | 'assigned' | 'gold' | 'sources' | 'controls'>

/**
 * The candidates' variants, a fixed plan's assignments, the adjudicated gold, the sources and the
 * controls' answers: none depends on the labels, so a cold view reads them while a worker reads
 * the label blocks.
 */
export function besidesLabels(
  db: Db,
  datasetId: number,
  fixed: boolean,
  targets: readonly TargetPart[],
): BesidesLabels {
  return {
    variants: candidateVariants(db, datasetId, targets),
    assigned: fixed ? readAssignments(db, datasetId) : null,
    gold: adjudicatedGold(db, datasetId),
    sources: sourceIds(db),
    controls: controlAnswersOf(db, datasetId),
  }
}

/**
 * What the dashboard's one pass reads (dashboardTally.ts): the dataset's targets and their labels
 * as columns from the stored blocks (a few hundred rows at a million targets, against a million
 * rows joined with their units), its candidates' variants and, under a fixed plan, who holds
 * which item. The labels stay where the blocks hold them (labelSegments).
 */
export function dashboardColumns(
  db: Db,
  datasetId: number,
  fixed: boolean,
  read: DashboardRead = {},
): Pick<TallyInput, 'targets' | 'labels'> & BesidesLabels {
  const targets = read.targets ?? readTargetBlockParts(db, datasetId) ?? targetRows(db, datasetId)
  // The dataset's first and last target ids: the range of labels read.
  let lo = Number.POSITIVE_INFINITY
  let hi = Number.NEGATIVE_INFINITY
  for (const part of targets)
    for (let i = 0; i < part.n; i++) {
      if (part.dataset !== null && part.dataset[i] !== datasetId) continue
      const id = part.block * BLOCK + part.offset[i]!
      if (id < lo) lo = id
      if (id > hi) hi = id
    }
  const labels = labelSegments(
    hi < lo ? labelColumnsOf(db, 1, 0) : labelColumnsOf(db, lo, hi, read.labelBlocks),
  )
  return { targets, labels, ...(read.besides ?? besidesLabels(db, datasetId, fixed, targets)) }
}

/**
 * A workspace from before the target blocks (read-only, not upgraded): the rows themselves,
 * grouped by block as the stored blocks are.
 */
function targetRows(db: Db, datasetId: number): TargetPart[] {
  const rows = db
    .prepare(
      `SELECT t.id, t.item_id, COALESCE(t.candidate_id, -1),
         (u.superseded_by IS NULL AND u.deleted_at IS NULL) * ${CURRENT}
         + EXISTS (SELECT 1 FROM controls x WHERE x.target_id = t.id) * ${CONTROL}
       FROM targets t JOIN units u ON u.id = t.unit_id WHERE t.dataset_id = ? ORDER BY t.id`,
    )
    .raw()
    .all(datasetId) as [number, number, number, number][]
  const parts: TargetPart[] = []
  for (const [from, to] of runsByBlock(rows.length, (p) => rows[p]![0])) {
    const run = rows.slice(from, to)
    parts.push({
      block: Math.floor(run[0]![0] / BLOCK),
      n: run.length,
      dataset: null,
      item: Int32Array.from(run, (r) => r[1]),
      candidate: Int32Array.from(run, (r) => r[2]),
      offset: Uint16Array.from(run, (r) => r[0] % BLOCK),
      flags: Uint8Array.from(run, (r) => r[3]),
    })
  }
  return parts
}

/** [from, to) of each run of ids (ascending) in one block. */
function runsByBlock(n: number, idAt: (p: number) => number): [number, number][] {
  const runs: [number, number][] = []
  let from = 0
  for (let p = 1; p <= n; p++)
    if (p === n || Math.floor(idAt(p) / BLOCK) !== Math.floor(idAt(from) / BLOCK)) {
      runs.push([from, p])
      from = p
    }
  return n === 0 ? [] : runs
}

/**
 * The labels as the pass reads them, block by block: each stored block's columns where they lie
 * (a million targets' 1.8 million labels are 47 MB that copying out would touch a second time),
 * or the columns themselves cut at the blocks' bounds when they were read row by row.
 */
export function labelSegments(rows: LabelRowsColumns): TallyLabels {
  const stored = blockParts(rows)
  if (stored)
    return {
      verdicts: rows.verdicts,
      segments: stored.parts.map(
        (p): LabelSegment => ({
          n: p.n,
          base: p.base,
          offset: p.offset,
          target: null,
          annotator: p.annotator,
          verdict: p.verdict,
          codes: p.codes,
          seconds: p.seconds,
        }),
      ),
    }
  const identity = Int32Array.from(rows.verdicts, (_, i) => i)
  return {
    verdicts: rows.verdicts,
    segments: runsByBlock(rows.target.length, (p) => rows.target[p]!).map(([from, to]) => ({
      n: to - from,
      base: 0,
      offset: null,
      target: rows.target.subarray(from, to),
      annotator: rows.annotator.subarray(from, to),
      verdict: rows.verdict.subarray(from, to),
      codes: identity,
      seconds: rows.seconds.subarray(from, to),
    })),
  }
}
