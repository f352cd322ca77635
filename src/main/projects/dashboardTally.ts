/**
 * The dashboard's label figures in one pass over a dataset's targets and labels as columns (the
 * stored target and label blocks), not a million rows turned into objects: at a million targets
 * the row-by-row reading took the server's one thread for a minute. The labels are read where
 * the blocks hold them, never copied out first, and the per-person figures live in arrays
 * indexed by annotator id: at a million targets most of the pass's time had been the first touch
 * of fresh memory for such copies. Pure: the caller reads.
 */

import type { Assignments } from './assignmentsPacked'
import {
  BLOCK,
  CONTROL,
  CURRENT,
  type LabelSegment,
  pairBlocks,
  type TallyLabels,
  type TargetPart,
} from './dashboardBlocks'
import { itemOwners } from './itemOwners'
import { medianInPlace } from './medianInPlace'
import { countPair, type PairCounts, type PairTally, pairLookup } from './pairKappa'
import { variantCodes } from './variantCodes'

export type { PairTally }

export interface TallyInput {
  datasetId: number
  /** in block order */
  targets: readonly TargetPart[]
  /** candidate id → variant, in the order the candidates were read */
  variantOf: readonly (readonly [candidate: number, variant: string])[]
  labels: TallyLabels
  sources: ReadonlySet<number>
  /** adjudicated gold by target */
  gold: ReadonlyMap<number, string>
  /** (item, annotator) of a fixed plan's assignments, else null */
  assigned: Assignments | null
  k: number
  /** Count agreement between pairs of people (false: the caller has the pairs' figures already). */
  pairs?: boolean
}

export interface PersonTally {
  labels: number
  activeSeconds: number
  /** labels with recorded time, and the middle of their seconds */
  timedLabels: number
  medianSeconds: number | null
  /** labels on targets with an adjudicated decision: the person's verdicts and the gold */
  mine: string[]
  gold: string[]
  /** labels per variant */
  placed: Map<string, number>
  /** labels inside their own assignment (a fixed plan) */
  inAssignment: number
}

export interface Tally {
  targets: number
  complete: number
  towards: number
  /** in the order of each variant's first candidate */
  byVariant: { variant: string; targets: number; complete: number }[]
  people: Map<number, PersonTally>
  /** the middle of the seconds of every person's labels with recorded time (the pace) */
  medianSeconds: number | null
  /** (target, annotator) of people's labels on units no longer current (an older wording or deleted) */
  notCurrent: [target: number, annotator: number][]
  /** labels per source */
  sources: Map<number, number>
  /** people's labels on current controls, per person (scored as control accuracy, not work) */
  controls: Map<number, number>
  /** fixed plan: targets per annotator, and per annotator × variant */
  assignedTargets: Map<number, number>
  assignedByVariant: Map<string, number>
  pair: (a: number, b: number) => PairTally
  /** Whether people labelled work targets that have no candidate (judged against the reference). */
  withoutCandidate: boolean
}

/** What one label is to the dashboard. */
const SKIP = 0
const SOURCE = 1
const NOT_CURRENT = 2
const ON_CONTROL = 3
const WORK = 4

export function tallyDashboard(input: TallyInput): Tally {
  const { targets: parts, labels, k, datasetId } = input
  const segments = labels.segments

  let maxA = 0
  for (const s of segments) for (let p = 0; p < s.n; p++) if (s.annotator[p]! > maxA) maxA = s.annotator[p]!
  const A = maxA + 1
  const isSource = new Uint8Array(A)
  for (const a of input.sources) if (a <= maxA) isSource[a] = 1

  const { names: variantNames, of: variantOfCandidate } = variantCodes(input.variantOf)
  const W = variantNames.length

  // A fixed plan's owners of each item, as offsets into one list (item ids of the dataset are a range).
  const owners = itemOwners(input.assigned)

  // Block by block: the dataset's targets of the block by offset, so each label finds its target
  // in the stored block itself (−1: none of the dataset's).
  const pos = new Int32Array(BLOCK).fill(-1)
  const blocks = pairBlocks(parts, segments)
  const enter = (part: TargetPart) => {
    for (let i = 0; i < part.n; i++)
      if (part.dataset === null || part.dataset[i] === datasetId) pos[part.offset[i]!] = i
  }
  const leave = (part: TargetPart) => {
    for (let i = 0; i < part.n; i++) pos[part.offset[i]!] = -1
  }
  const idOf = (s: LabelSegment, p: number) => (s.offset !== null ? s.base + s.offset[p]! : s.target![p]!)
  const kindOf = (part: TargetPart, i: number, a: number): number => {
    if (i < 0) return SKIP
    if (isSource[a] === 1) return SOURCE
    const f = part.flags[i]!
    if ((f & CURRENT) === 0) return NOT_CURRENT
    return (f & CONTROL) !== 0 ? ON_CONTROL : WORK
  }

  // First the people's timed labels are counted, so their seconds go straight to one region each.
  const timedCount = new Int32Array(A)
  for (const [part, s] of blocks) {
    if (s === null) continue
    enter(part)
    const { annotator, seconds } = s
    const base = part.block * BLOCK
    for (let p = 0; p < s.n; p++) {
      const a = annotator[p]!
      if (seconds[p]! > 0 && kindOf(part, pos[idOf(s, p) - base]!, a) === WORK) timedCount[a]!++
    }
    leave(part)
  }
  const timedStart = new Int32Array(A + 1)
  for (let a = 0; a < A; a++) timedStart[a + 1] = timedStart[a]! + timedCount[a]!
  const timed = new Float64Array(timedStart[A]!)
  const timedFill = timedStart.slice(0, A)

  const seen = new Uint8Array(A)
  const labelCount = new Float64Array(A)
  const activeSeconds = new Float64Array(A)
  const inAssignment = new Float64Array(A)
  const placed = new Float64Array(A * W)
  const mine: string[][] = []
  const goldOf: string[][] = []
  const notCurrent: [number, number][] = []
  const sourceCounts = new Float64Array(A)
  const controlCounts = new Float64Array(A)
  // Per target of the block: its people's labels (towards k), which matter only up to k.
  const byTarget = new Int32Array(BLOCK)
  // Pairs of people on one target, as counts: a pair's κ needs its agreement and each side's marginals.
  const V = labels.verdicts.length
  const countPairs = input.pairs ?? true
  const pairs: PairCounts[][] = []
  let withoutCandidate = false

  let targets = 0
  let complete = 0
  let towards = 0
  const variantTargets = new Float64Array(W)
  const variantComplete = new Float64Array(W)
  const variantFirst = new Float64Array(W).fill(Number.POSITIVE_INFINITY)
  // Per annotator id: a fixed plan may name people with no label yet.
  let assignees = A
  for (const a of owners.annotator) if (a + 1 > assignees) assignees = a + 1
  const assignedAll = new Float64Array(assignees)
  const assignedGrid = new Float64Array(assignees * W)

  for (const [part, s] of blocks) {
    if (s !== null) {
      enter(part)
      const { annotator, verdict, codes, seconds } = s
      const base = part.block * BLOCK
      let start = 0
      while (start < s.n) {
        const target = idOf(s, start)
        let end = start + 1
        while (end < s.n && idOf(s, end) === target) end++
        const i = pos[target - base]!
        if (i >= 0) {
          // A target judged against the reference has no candidate, so no variant.
          const variant = variantOfCandidate(part.candidate[i]!)
          const gold = input.gold.size === 0 ? undefined : input.gold.get(target)
          const item = part.item[i]! - owners.lo
          const o0 = item >= 0 && item < owners.span ? owners.start[item]! : 0
          const o1 = item >= 0 && item < owners.span ? owners.start[item + 1]! : 0
          for (let p = start; p < end; p++) {
            const a = annotator[p]!
            const kind = kindOf(part, i, a)
            if (kind === SOURCE) {
              sourceCounts[a]!++
              continue
            }
            if (kind === NOT_CURRENT) {
              notCurrent.push([target, a])
              continue
            }
            if (kind === ON_CONTROL) {
              controlCounts[a]!++
              continue
            }
            seen[a] = 1
            if (variant < 0) withoutCandidate = true
            byTarget[i]!++
            const sec = seconds[p]!
            labelCount[a]!++
            activeSeconds[a]! += sec
            if (sec > 0) timed[timedFill[a]!++] = sec
            if (variant >= 0) placed[a * W + variant]!++
            for (let o = o0; o < o1; o++)
              if (owners.annotator[o] === a) {
                inAssignment[a]!++
                break
              }
            const cp = codes[verdict[p]!]!
            if (gold !== undefined) {
              if (mine[a] === undefined) {
                mine[a] = []
                goldOf[a] = []
              }
              mine[a].push(labels.verdicts[cp]!)
              goldOf[a]!.push(gold)
            }
            if (!countPairs) continue
            for (let q = p + 1; q < end; q++) {
              const b = annotator[q]!
              if (isSource[b] === 1) continue
              countPair(pairs, V, a, b, cp, codes[verdict[q]!]!)
            }
          }
        }
        start = end
      }
      leave(part)
    }
    // The block's work targets, in id order: progress towards k, per variant, a fixed plan's shares.
    for (let i = 0; i < part.n; i++) {
      const counted = byTarget[i]!
      byTarget[i] = 0
      if (
        (part.dataset !== null && part.dataset[i] !== datasetId) ||
        (part.flags[i]! & (CURRENT | CONTROL)) !== CURRENT
      )
        continue
      const done = counted >= k ? 1 : 0
      targets++
      complete += done
      towards += Math.min(counted, k)
      const c = part.candidate[i]!
      const v = variantOfCandidate(c)
      if (v >= 0) {
        variantTargets[v]!++
        variantComplete[v]! += done
        if (c < variantFirst[v]!) variantFirst[v] = c
      }
      const item = part.item[i]! - owners.lo
      if (item < 0 || item >= owners.span) continue
      for (let o = owners.start[item]!; o < owners.start[item + 1]!; o++) {
        const a = owners.annotator[o]!
        assignedAll[a]!++
        if (v >= 0) assignedGrid[a * W + v]!++
      }
    }
  }

  const people = new Map<number, PersonTally>()
  for (let a = 0; a < A; a++) {
    if (seen[a] === 0) continue
    const byVariant = new Map<string, number>()
    for (let v = 0; v < W; v++)
      if (placed[a * W + v]! > 0) byVariant.set(variantNames[v]!, placed[a * W + v]!)
    people.set(a, {
      labels: labelCount[a]!,
      activeSeconds: activeSeconds[a]!,
      timedLabels: timedCount[a]!,
      medianSeconds: medianInPlace(timed, timedStart[a]!, timedStart[a + 1]!),
      mine: mine[a] ?? [],
      gold: goldOf[a] ?? [],
      placed: byVariant,
      inAssignment: inAssignment[a]!,
    })
  }
  // After each person's: selection reorders only inside each region, and every region is here.
  const medianSeconds = medianInPlace(timed)

  const byVariant: Tally['byVariant'] = []
  const order: number[] = []
  for (let v = 0; v < W; v++) if (variantTargets[v]! > 0) order.push(v)
  order.sort((x, y) => variantFirst[x]! - variantFirst[y]!)
  for (const v of order)
    byVariant.push({ variant: variantNames[v]!, targets: variantTargets[v]!, complete: variantComplete[v]! })

  const countsOf = (column: Float64Array) => {
    const out = new Map<number, number>()
    column.forEach((count, a) => {
      if (count > 0) out.set(a, count)
    })
    return out
  }
  const byPersonVariant = new Map<string, number>()
  for (let a = 0; a < assignedAll.length; a++)
    for (let v = 0; v < W; v++) {
      const x = assignedGrid[a * W + v]!
      if (x > 0) byPersonVariant.set(`${a}|${variantNames[v]}`, x)
    }

  return {
    targets,
    complete,
    towards,
    byVariant,
    people,
    medianSeconds,
    notCurrent,
    sources: countsOf(sourceCounts),
    controls: countsOf(controlCounts),
    assignedTargets: countsOf(assignedAll),
    assignedByVariant: byPersonVariant,
    pair: pairLookup(pairs, V),
    withoutCandidate,
  }
}
