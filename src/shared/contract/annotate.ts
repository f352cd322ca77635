import { z } from 'zod'
import { EvidenceSpan, Label, SaveId, Triplet, UnitKind, VerdictStatus } from '../domain'
import { LabelSchema } from '../labelSchemas'
import { call } from './define'

/**
 * The refusal of a label on a unit wording that was reworded or removed since the item was
 * opened (another window, or a package opened from the CLI): the view reloads the item on it.
 */
export const UNIT_REWORDED =
  'This unit was reworded since you opened the item; the item has been reloaded. Nothing was saved.'

/** A judge's answer on one target, as the annotate view shows it. */
export const JudgeVerdict = z.object({
  runId: z.number().int(),
  judge: z.string(),
  status: VerdictStatus,
  verdict: z.string().nullable(),
  reason: z.string().nullable(),
  citation: z.string().nullable(),
})
export type JudgeVerdict = z.infer<typeof JudgeVerdict>

export const MyLabel = z.object({
  verdict: z.string().nullable(),
  evidence: z.array(EvidenceSpan),
  note: z.string().nullable(),
  updatedAt: z.string(),
})
export type MyLabel = z.infer<typeof MyLabel>

export const AnnotateTarget = z.object({
  targetId: z.number().int(),
  unitId: z.number().int(),
  candidateId: z.number().int(),
  kind: UnitKind,
  text: z.string(),
  triplet: Triplet.nullable(),
  /** Which pane holds what the unit is judged against (facts: candidate; the rest: reference). */
  against: z.enum(['reference', 'candidate']),
  mine: MyLabel.nullable(),
  /** Other annotators' verdicts and judges' verdicts; null while hidden by blind mode. */
  others: z.array(z.object({ annotator: z.string(), verdict: z.string() })).nullable(),
  judges: z.array(JudgeVerdict).nullable(),
  disputed: z.boolean(),
  /** Under an annotation plan: done for me (k labels from others, or not in my assignment). */
  settled: z.boolean().optional(),
})
export type AnnotateTarget = z.infer<typeof AnnotateTarget>

export const AnnotateView = z.object({
  dataset: z.object({ id: z.number().int(), name: z.string(), labelSchema: LabelSchema }),
  item: z.object({
    id: z.number().int(),
    extId: z.string(),
    position: z.number().int(),
    question: z.string().nullable(),
    reference: z.string(),
  }),
  itemIndex: z.number().int(),
  itemCount: z.number().int(),
  prevItemId: z.number().int().nullable(),
  nextItemId: z.number().int().nullable(),
  /** `share`: position and neighbours count the person's own items (a fixed plan), else the dataset's. */
  walk: z.enum(['dataset', 'share']),
  candidates: z.array(z.object({ id: z.number().int(), variant: z.string(), text: z.string() })),
  targets: z.array(AnnotateTarget),
  /** The target to focus first: the one asked for, else my first unlabelled one in this item. */
  focusTargetId: z.number().int().nullable(),
  /** How many judge verdicts blind mode is hiding in this item. */
  hiddenJudgeVerdicts: z.number().int(),
  /** I stepped out of labelling this dataset to adjudicate it: my labels here are refused. */
  steppedOut: z.boolean(),
})
export type AnnotateView = z.infer<typeof AnnotateView>

/** Calls of the annotate area. Names read `annotate.verb`. */
export const annotateCalls = {
  /** The item holding `targetId` (or `itemId`, else my next unlabelled target, else the first item). */
  'annotate.open': call(
    z.object({
      datasetId: z.number().int(),
      annotatorId: z.number().int(),
      targetId: z.number().int().optional(),
      itemId: z.number().int().optional(),
      blind: z.boolean().default(false),
    }),
    AnnotateView,
  ),
  /** Saves my label on one target at once; `verdict: null` clears it (the history keeps it). */
  'annotate.save': call(
    z.object({
      targetId: z.number().int(),
      annotatorId: z.number().int(),
      verdict: z.string().nullable(),
      evidence: z.array(EvidenceSpan).max(200).optional(),
      note: z.string().max(10_000).nullable().optional(),
      seconds: z.number().nonnegative().max(86_400).optional(),
      /** The guidelines version on screen when the label was given (the one it is recorded under). */
      guidelinesVersion: z.number().int().min(1).optional(),
      /**
       * The client's id for this attempt to save (a fresh random one per label given). Sent again
       * with a save whose answer was lost, it is answered with the label the first save stored,
       * and nothing is written twice.
       */
      saveId: SaveId.optional(),
    }),
    Label,
  ),
  /**
   * My next unlabelled target in reading order after `afterTargetId`, wrapping; null when all done.
   * Under an annotation plan the plan decides (projects/queue.ts): fewest labels first and never
   * past k (open), or my assigned items (fixed), with controls mixed in at the plan's rate.
   */
  'annotate.next': call(
    z.object({
      datasetId: z.number().int(),
      annotatorId: z.number().int(),
      afterTargetId: z.number().int().optional(),
    }),
    z.object({ targetId: z.number().int().nullable(), itemId: z.number().int().nullable() }),
  ),
}
