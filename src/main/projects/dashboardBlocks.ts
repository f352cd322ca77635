import type { TargetBlockPart } from '../metrics/targetBlocks'

/**
 * The stored target and label blocks as the dashboard's pass walks them (dashboardTally.ts): both
 * group target ids by the same block, so each block of labels finds its targets in the block of
 * the same number.
 */

/** Target flags, as the target blocks store them (metrics/targetBlocks.ts). */
export const CURRENT = 1
export const CONTROL = 2
/** Target ids per block, as both kinds of stored block group them. */
export const BLOCK = 4096

/**
 * One block's targets (ids block · BLOCK + offset), of every dataset it holds, in id order: a
 * stored target block's columns where they lie, or the dataset's rows grouped so.
 */
export type TargetPart = TargetBlockPart

/**
 * The labels of one block in (target, annotator) order: a stored block's columns where they lie
 * (target id = base + offset), or plain columns (target id in `target`). Labels of targets
 * outside the dataset may be among them: the pass skips them.
 */
export interface LabelSegment {
  n: number
  base: number
  offset: Uint16Array | null
  target: Int32Array | null
  annotator: Int32Array
  /** index into `codes` */
  verdict: Uint32Array | Int32Array
  /** the segment's verdicts as indexes into the labels' `verdicts` */
  codes: Int32Array
  seconds: Float64Array
}

export interface TallyLabels {
  /** in block order, one block each */
  segments: readonly LabelSegment[]
  verdicts: readonly string[]
}

/**
 * Each block of the dataset's targets with its labels (null: none), both in block order. Labels
 * of a block without any of the dataset's targets are left out.
 */
export function pairBlocks(
  parts: readonly TargetPart[],
  segments: readonly LabelSegment[],
): [TargetPart, LabelSegment | null][] {
  const blockOf = (s: LabelSegment) => Math.floor((s.offset !== null ? s.base : s.target![0]!) / BLOCK)
  const out: [TargetPart, LabelSegment | null][] = []
  let j = 0
  for (const part of parts) {
    while (j < segments.length && (segments[j]!.n === 0 || blockOf(segments[j]!) < part.block)) j++
    const s = j < segments.length && blockOf(segments[j]!) === part.block ? segments[j]! : null
    out.push([part, s])
  }
  return out
}
