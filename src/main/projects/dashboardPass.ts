/**
 * The dashboard's pass over one block at a time (dashboardTally.ts puts the blocks through it),
 * as small functions of plain typed arrays. Written as one long function with closures, the pass
 * ran unoptimised for most of a cold open: V8 compiled its loop on the side for up to 0.7 s on a
 * loaded machine (a big body inlines much), then dropped that code on leaving the loop. Functions
 * this size are compiled in a few milliseconds and stay compiled. Pure.
 */

import { BLOCK, CONTROL, CURRENT, type LabelSegment, type TargetPart } from './dashboardBlocks'
import type { ItemOwners } from './itemOwners'
import { countPair, type PairCounts } from './pairKappa'

/** What the pass reads and never changes. */
export interface PassInput {
  datasetId: number
  k: number
  /** 1 for a source's id (its labels are reference labels, not work) */
  isSource: Uint8Array
  /** candidate id − candidateLo → variant code (−1: none) */
  candidateLo: number
  variantOfCandidate: Int32Array
  /** variants coded */
  W: number
  owners: ItemOwners
  /** adjudicated gold: target ids ascending, their verdicts alongside */
  goldTargets: Int32Array
  goldVerdicts: readonly string[]
  /** the dataset's controls: target ids ascending, their answers alongside ('' when not known) */
  controlTargets: Int32Array
  controlVerdicts: readonly string[]
  verdicts: readonly string[]
  countPairs: boolean
  /** List the work targets past k (under a plan: without one k is 1, and most targets are past it). */
  listPastK: boolean
}

/** The pass's running figures, per annotator id (and per annotator × variant) in typed arrays. */
export interface PassFigures {
  /** the block's target index of each offset (−1: none of the dataset's) */
  pos: Int32Array
  /** per target of the block: its people's labels (towards k) */
  byTarget: Int32Array
  seen: Uint8Array
  labelCount: Float64Array
  activeSeconds: Float64Array
  inAssignment: Float64Array
  placed: Float64Array
  /** timed seconds, one region per person, and where each person's next one goes */
  timed: Float64Array
  timedFill: Int32Array
  mine: (string[] | undefined)[]
  goldOf: (string[] | undefined)[]
  notCurrent: [number, number][]
  sourceCounts: Float64Array
  controlCounts: Float64Array
  /** people's answers on controls with a known answer (current or not), and how many match it */
  controlAnswered: Float64Array
  controlCorrect: Float64Array
  pairs: PairCounts[][]
  withoutCandidate: boolean
  /** where the gold list and the controls' list were last read (targets come in id order) */
  goldCursor: SortedCursor
  controlCursor: SortedCursor
  targets: number
  complete: number
  towards: number
  variantTargets: Float64Array
  variantComplete: Float64Array
  variantFirst: Float64Array
  assignedAll: Float64Array
  assignedGrid: Float64Array
  /** work targets holding more than k people's labels, ascending: only these can hold one ranked past k */
  pastK: number[]
}

/** What one label is to the dashboard. */
const SKIP = 0
const SOURCE = 1
const NOT_CURRENT = 2
const ON_CONTROL = 3
const WORK = 4

export function newPassFigures(A: number, W: number, assignees: number): PassFigures {
  return {
    pos: new Int32Array(BLOCK).fill(-1),
    byTarget: new Int32Array(BLOCK),
    seen: new Uint8Array(A),
    labelCount: new Float64Array(A),
    activeSeconds: new Float64Array(A),
    inAssignment: new Float64Array(A),
    placed: new Float64Array(A * W),
    timed: new Float64Array(0),
    timedFill: new Int32Array(A),
    mine: [],
    goldOf: [],
    notCurrent: [],
    sourceCounts: new Float64Array(A),
    controlCounts: new Float64Array(A),
    controlAnswered: new Float64Array(A),
    controlCorrect: new Float64Array(A),
    pairs: [],
    withoutCandidate: false,
    goldCursor: { at: 0, last: -1 },
    controlCursor: { at: 0, last: -1 },
    targets: 0,
    complete: 0,
    towards: 0,
    variantTargets: new Float64Array(W),
    variantComplete: new Float64Array(W),
    variantFirst: new Float64Array(W).fill(Number.POSITIVE_INFINITY),
    assignedAll: new Float64Array(assignees),
    assignedGrid: new Float64Array(assignees * W),
    pastK: [],
  }
}

/** Marks the dataset's targets of a block in `pos`, so each label finds its target by offset. */
export function enterBlock(pos: Int32Array, part: TargetPart, datasetId: number): void {
  const { offset, dataset } = part
  for (let i = 0; i < part.n; i++) if (dataset === null || dataset[i] === datasetId) pos[offset[i]!] = i
}

export function leaveBlock(pos: Int32Array, part: TargetPart): void {
  const { offset } = part
  for (let i = 0; i < part.n; i++) pos[offset[i]!] = -1
}

function kindOf(flags: Uint8Array, isSource: Uint8Array, i: number, a: number): number {
  if (i < 0) return SKIP
  if (isSource[a] === 1) return SOURCE
  const f = flags[i]!
  if ((f & CURRENT) === 0) return NOT_CURRENT
  return (f & CONTROL) !== 0 ? ON_CONTROL : WORK
}

const idOf = (s: LabelSegment, p: number): number =>
  s.offset !== null ? s.base + s.offset[p]! : s.target![p]!

/** The next entry of a sorted list to look at, and the last target looked up. */
interface SortedCursor {
  at: number
  last: number
}

/**
 * The value beside `target` in a list sorted by target, or undefined: read with a cursor that
 * moves forward, as targets come in order (a target before the last one starts it again).
 */
function lookupSorted(
  ids: ArrayLike<number>,
  values: ArrayLike<string>,
  cur: SortedCursor,
  target: number,
): string | undefined {
  if (ids.length === 0) return undefined
  if (target < cur.last) cur.at = 0
  cur.last = target
  let i = cur.at
  while (i < ids.length && ids[i]! < target) i++
  cur.at = i
  return i < ids.length && ids[i] === target ? values[i] : undefined
}

/** One block's labels (its targets entered), target by target. */
export function tallyLabels(input: PassInput, f: PassFigures, part: TargetPart, s: LabelSegment): void {
  const base = part.block * BLOCK
  let start = 0
  while (start < s.n) {
    const target = idOf(s, start)
    let end = start + 1
    while (end < s.n && idOf(s, end) === target) end++
    const i = f.pos[target - base]!
    if (i >= 0) tallyTarget(input, f, part, s, i, target, start, end)
    start = end
  }
}

/** The labels start … end − 1 of one of the dataset's targets (index i of its block). */
function tallyTarget(
  input: PassInput,
  f: PassFigures,
  part: TargetPart,
  s: LabelSegment,
  i: number,
  target: number,
  start: number,
  end: number,
): void {
  const { annotator, verdict, codes, seconds } = s
  const { isSource, owners, W } = input
  const flags = part.flags
  // A target judged against the reference has no candidate, so no variant.
  const variant = variantOf(input, part.candidate[i]!)
  const gold = lookupSorted(input.goldTargets, input.goldVerdicts, f.goldCursor, target)
  // Scored against the control's answer whether its unit is current or not, as people gave them.
  const control =
    (flags[i]! & CONTROL) !== 0
      ? lookupSorted(input.controlTargets, input.controlVerdicts, f.controlCursor, target)
      : undefined
  const item = part.item[i]! - owners.lo
  const o0 = item >= 0 && item < owners.span ? owners.start[item]! : 0
  const o1 = item >= 0 && item < owners.span ? owners.start[item + 1]! : 0
  for (let p = start; p < end; p++) {
    const a = annotator[p]!
    const kind = kindOf(flags, isSource, i, a)
    if (kind === SOURCE) {
      f.sourceCounts[a]!++
      continue
    }
    if (control !== undefined && control !== '') {
      f.controlAnswered[a]!++
      if (input.verdicts[codes[verdict[p]!]!] === control) f.controlCorrect[a]!++
    }
    if (kind === NOT_CURRENT) {
      f.notCurrent.push([target, a])
      continue
    }
    if (kind === ON_CONTROL) {
      f.controlCounts[a]!++
      continue
    }
    f.seen[a] = 1
    if (variant < 0) f.withoutCandidate = true
    f.byTarget[i]!++
    const sec = seconds[p]!
    f.labelCount[a]!++
    f.activeSeconds[a]! += sec
    if (sec > 0) f.timed[f.timedFill[a]!++] = sec
    if (variant >= 0) f.placed[a * W + variant]!++
    for (let o = o0; o < o1; o++)
      if (owners.annotator[o] === a) {
        f.inAssignment[a]!++
        break
      }
    const cp = codes[verdict[p]!]!
    if (gold !== undefined) addGold(f, a, input.verdicts[cp]!, gold)
    if (!input.countPairs) continue
    for (let q = p + 1; q < end; q++) {
      const b = annotator[q]!
      if (isSource[b] === 1) continue
      countPair(f.pairs, input.verdicts.length, a, b, cp, codes[verdict[q]!]!)
    }
  }
}

function addGold(f: PassFigures, a: number, mine: string, gold: string): void {
  let m = f.mine[a]
  let g = f.goldOf[a]
  if (m === undefined || g === undefined) {
    m = []
    g = []
    f.mine[a] = m
    f.goldOf[a] = g
  }
  m.push(mine)
  g.push(gold)
}

export function variantOf(input: PassInput, candidate: number): number {
  const c = candidate - input.candidateLo
  return c < 0 || c >= input.variantOfCandidate.length ? -1 : input.variantOfCandidate[c]!
}

/** The block's work targets, in id order: progress towards k, per variant, a fixed plan's shares. */
export function tallyTargets(input: PassInput, f: PassFigures, part: TargetPart): void {
  const { datasetId, k, owners, W } = input
  const { dataset, flags, candidate } = part
  const byTarget = f.byTarget
  for (let i = 0; i < part.n; i++) {
    const counted = byTarget[i]!
    byTarget[i] = 0
    if ((dataset !== null && dataset[i] !== datasetId) || (flags[i]! & (CURRENT | CONTROL)) !== CURRENT)
      continue
    const done = counted >= k ? 1 : 0
    if (counted > k && input.listPastK) f.pastK.push(part.block * BLOCK + part.offset[i]!)
    f.targets++
    f.complete += done
    f.towards += Math.min(counted, k)
    const c = candidate[i]!
    const v = variantOf(input, c)
    if (v >= 0) {
      f.variantTargets[v]!++
      f.variantComplete[v]! += done
      if (c < f.variantFirst[v]!) f.variantFirst[v] = c
    }
    const item = part.item[i]! - owners.lo
    if (item < 0 || item >= owners.span) continue
    for (let o = owners.start[item]!; o < owners.start[item + 1]!; o++) {
      const a = owners.annotator[o]!
      f.assignedAll[a]!++
      if (v >= 0) f.assignedGrid[a * W + v]!++
    }
  }
}
