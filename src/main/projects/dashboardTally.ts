/**
 * The dashboard's label figures in one pass over a dataset's targets and labels as columns (the
 * stored target and label blocks), not a million rows turned into objects: at a million targets
 * the row-by-row reading took the server's one thread for a minute. The labels are read where
 * the blocks hold them, never copied out first, and the per-person figures live in arrays
 * indexed by annotator id: at a million targets most of the pass's time had been the first touch
 * of fresh memory for such copies. Pure: the caller reads.
 */

import type { Assignments } from './assignmentsPacked'
import type { ControlAnswers } from './controls'
import { pairBlocks, type TallyLabels, type TargetPart } from './dashboardBlocks'
import {
  enterBlock,
  leaveBlock,
  newPassFigures,
  type PassInput,
  tallyLabels,
  tallyTargets,
} from './dashboardPass'
import { itemOwners } from './itemOwners'
import { medianInPlace } from './medianInPlace'
import { type PairTally, pairLookup } from './pairKappa'
import type { VariantCodes } from './variantCodes'

export type { PairTally }

export interface TallyInput {
  datasetId: number
  /** in block order */
  targets: readonly TargetPart[]
  /** each candidate's variant, coded */
  variants: VariantCodes
  labels: TallyLabels
  sources: ReadonlySet<number>
  /** adjudicated gold by target */
  gold: ReadonlyMap<number, string>
  /** the dataset's controls and their answers ('' when not known), by target ascending */
  controls: ControlAnswers
  /** (item, annotator) of a fixed plan's assignments, else null */
  assigned: Assignments | null
  k: number
  /** Count agreement between pairs of people (false: the caller has the pairs' figures already). */
  pairs?: boolean
  /** List the work targets holding more than k people's labels (`pastKTargets`; else none are listed). */
  pastK?: boolean
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
  /** per person with any, ascending: answers on controls with a known answer, and how many match */
  controlAnswers: { annotatorId: number; answered: number; correct: number }[]
  /** fixed plan: targets per annotator, and per annotator × variant */
  assignedTargets: Map<number, number>
  assignedByVariant: Map<string, number>
  pair: (a: number, b: number) => PairTally
  /** Whether people labelled work targets that have no candidate (judged against the reference). */
  withoutCandidate: boolean
  /** Work targets holding more than k people's labels, in id order (when asked for: `pastK`). */
  pastKTargets: number[]
}

export function tallyDashboard(input: TallyInput): Tally {
  const { targets: parts, labels, k, datasetId } = input
  const segments = labels.segments

  let maxA = 0
  for (const s of segments) for (let p = 0; p < s.n; p++) if (s.annotator[p]! > maxA) maxA = s.annotator[p]!
  const A = maxA + 1
  const isSource = new Uint8Array(A)
  for (const a of input.sources) if (a <= maxA) isSource[a] = 1

  const { names: variantNames, lo: candidateLo, code: variantOfCandidate } = input.variants
  const W = variantNames.length

  // A fixed plan's owners of each item, as offsets into one list (item ids of the dataset are a range).
  const owners = itemOwners(input.assigned)
  // Per annotator id: a fixed plan may name people with no label yet.
  let assignees = A
  for (const a of owners.annotator) if (a + 1 > assignees) assignees = a + 1

  const gold = [...input.gold].sort((x, y) => x[0] - y[0])
  const pass: PassInput = {
    datasetId,
    k,
    isSource,
    candidateLo,
    variantOfCandidate,
    W,
    owners,
    goldTargets: Int32Array.from(gold, (g) => g[0]),
    goldVerdicts: gold.map((g) => g[1]),
    controlTargets: input.controls.target,
    controlVerdicts: input.controls.verdict,
    verdicts: labels.verdicts,
    countPairs: input.pairs ?? true,
    listPastK: input.pastK ?? false,
  }
  const f = newPassFigures(A, W, assignees)
  // Block by block: the dataset's targets of the block by offset, so each label finds its target
  // in the stored block itself.
  const blocks = pairBlocks(parts, segments)

  // Each person's seconds go straight to a region of their own, as large as all their labels in
  // these blocks: a bound on their timed work labels that needs no pass of its own to count.
  const timedStart = new Int32Array(A + 1)
  for (const s of segments) for (let p = 0; p < s.n; p++) timedStart[s.annotator[p]! + 1]!++
  for (let a = 0; a < A; a++) timedStart[a + 1]! += timedStart[a]!
  f.timed = new Float64Array(timedStart[A]!)
  f.timedFill = timedStart.slice(0, A)

  for (const [part, s] of blocks) {
    if (s !== null) {
      enterBlock(f.pos, part, datasetId)
      tallyLabels(pass, f, part, s)
      leaveBlock(f.pos, part)
    }
    tallyTargets(pass, f, part)
  }
  const { seen, placed, timed, timedFill, mine, goldOf, variantTargets, variantComplete, variantFirst } = f

  const people = new Map<number, PersonTally>()
  for (let a = 0; a < A; a++) {
    if (seen[a] === 0) continue
    const byVariant = new Map<string, number>()
    for (let v = 0; v < W; v++)
      if (placed[a * W + v]! > 0) byVariant.set(variantNames[v]!, placed[a * W + v]!)
    people.set(a, {
      labels: f.labelCount[a]!,
      activeSeconds: f.activeSeconds[a]!,
      timedLabels: timedFill[a]! - timedStart[a]!,
      medianSeconds: medianInPlace(timed, timedStart[a]!, timedFill[a]!),
      mine: mine[a] ?? [],
      gold: goldOf[a] ?? [],
      placed: byVariant,
      inAssignment: f.inAssignment[a]!,
    })
  }
  // After each person's (selection reorders only inside each region): the regions' filled parts
  // moved together, every timed label once, for the middle of them all.
  let all = 0
  for (let a = 0; a < A; a++) {
    timed.copyWithin(all, timedStart[a]!, timedFill[a]!)
    all += timedFill[a]! - timedStart[a]!
  }
  const medianSeconds = medianInPlace(timed, 0, all)

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
  for (let a = 0; a < f.assignedAll.length; a++)
    for (let v = 0; v < W; v++) {
      const x = f.assignedGrid[a * W + v]!
      if (x > 0) byPersonVariant.set(`${a}|${variantNames[v]}`, x)
    }

  const controlAnswers: Tally['controlAnswers'] = []
  for (let a = 0; a < A; a++)
    if (f.controlAnswered[a]! > 0)
      controlAnswers.push({ annotatorId: a, answered: f.controlAnswered[a]!, correct: f.controlCorrect[a]! })

  return {
    targets: f.targets,
    complete: f.complete,
    towards: f.towards,
    byVariant,
    people,
    medianSeconds,
    notCurrent: f.notCurrent,
    sources: countsOf(f.sourceCounts),
    controls: countsOf(f.controlCounts),
    controlAnswers,
    assignedTargets: countsOf(f.assignedAll),
    assignedByVariant: byPersonVariant,
    pair: pairLookup(f.pairs, labels.verdicts.length),
    withoutCandidate: f.withoutCandidate,
    pastKTargets: f.pastK,
  }
}
