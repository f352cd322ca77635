import { z } from 'zod'
import { PackageRefresh } from '../packageRefresh'
import { FileSource } from './datasets'
import { call } from './define'

/** How targets reach annotators: anyone takes the next open target, or items split by name. */
export const AssignmentPolicy = z.enum(['open', 'fixed'])
export type AssignmentPolicy = z.infer<typeof AssignmentPolicy>

export const PlanAnnotator = z.object({
  annotatorId: z.number().int(),
  name: z.string(),
  /** Money per active hour; null falls back to the dataset's rate. */
  hourlyRate: z.number().nonnegative().nullable(),
})
export type PlanAnnotator = z.infer<typeof PlanAnnotator>

/** A dataset's annotation design. `planned: false` means none was set: everyone labels everything. */
export const Plan = z.object({
  datasetId: z.number().int(),
  planned: z.boolean(),
  k: z.number().int().min(1),
  policy: AssignmentPolicy,
  seed: z.number().int(),
  controlRate: z.number().min(0).max(1),
  hourlyRate: z.number().nonnegative().nullable(),
  annotators: z.array(PlanAnnotator),
  guidelinesVersion: z.number().int().nullable(),
  /**
   * Set on an annotator's laptop: the dataset came from this person's work package, and k, the
   * policy, the seed and the control rate are the lead's (a laptop cannot change them).
   */
  fromPackage: z.object({ id: z.string(), annotator: z.string() }).nullable().optional(),
})
export type Plan = z.infer<typeof Plan>

export const PlanInput = z.object({
  datasetId: z.number().int(),
  k: z.number().int().min(1).max(100).default(1),
  policy: AssignmentPolicy.default('open'),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(1),
  controlRate: z.number().min(0).max(1).default(0),
  hourlyRate: z.number().nonnegative().max(100_000).nullable().default(null),
  /** Named annotators (by name; created when new). Fixed policy splits items among them. */
  annotators: z
    .array(
      z.object({
        name: z.string().trim().min(1).max(200),
        hourlyRate: z.number().nonnegative().nullable().default(null),
      }),
    )
    .max(1000)
    .default([]),
})
export type PlanInput = z.input<typeof PlanInput>

export const Interval = z.object({ low: z.number(), high: z.number() })

export const AnnotatorFigures = z.object({
  annotatorId: z.number().int(),
  name: z.string(),
  labels: z.number().int(),
  /** Labels beyond k placed by hand (opened a target that was already done). */
  overK: z.number().int(),
  activeSeconds: z.number(),
  /**
   * Labels that carry active time. Labels saved from the CLI or a file carry none, so 0 here
   * means "no time recorded", not "no time spent".
   */
  timedLabels: z.number().int(),
  medianSeconds: z.number().nullable(),
  /** Targets in their assignment (fixed policy) or their fair share of k × targets (open). */
  assigned: z.number().int().nullable(),
  /** Labels towards `assigned`: on their assigned items' targets (fixed policy), else all of them. */
  assignedDone: z.number().int(),
  controls: z.object({
    answered: z.number().int(),
    correct: z.number().int(),
    accuracy: z.number().nullable(),
    interval: Interval.nullable(),
  }),
  kappaWithGold: z.number().nullable(),
  /**
   * The guidelines version they last read in full, and when (on this workspace, or on a laptop
   * whose bundle was merged); null when none is recorded.
   */
  guidelinesRead: z.object({ version: z.number().int(), at: z.string() }).nullable(),
  /** Targets behind kappaWithGold: κ over fewer than the small-sample minimum is not read. */
  goldShared: z.number().int(),
  hourlyRate: z.number().nullable(),
  /** Active hours × rate; null without a rate or without any recorded time (see timedLabels). */
  cost: z.number().nullable(),
  /**
   * Per variant, in the dashboard's variant order: labels placed (controls left out) and the
   * targets of that variant meant for this person (null without a plan).
   */
  byVariant: z.array(
    z.object({ variant: z.string(), labels: z.number().int(), assigned: z.number().int().nullable() }),
  ),
})
export type AnnotatorFigures = z.infer<typeof AnnotatorFigures>

export const PackageRow = z.object({
  id: z.string(),
  annotator: z.string(),
  targets: z.number().int(),
  createdAt: z.string(),
  returnedAt: z.string().nullable(),
  labelsBack: z.number().int(),
  /** The nth package this person was handed of the dataset (1 for the first). */
  version: z.number().int().min(1),
  /** The version of the newer package that replaced this one for the same person; null if current. */
  replacedBy: z.number().int().nullable(),
})

export const Dashboard = z.object({
  plan: Plan,
  targets: z.number().int(),
  /** Targets holding k labels (done for everyone). */
  complete: z.number().int(),
  /** Labels placed so far towards k × targets (each target counted up to k). */
  labelsTowardsK: z.number().int(),
  labelsWanted: z.number().int(),
  byVariant: z.array(
    z.object({ variant: z.string(), targets: z.number().int(), complete: z.number().int() }),
  ),
  annotators: z.array(AnnotatorFigures),
  pairwiseKappa: z.array(
    z.object({ a: z.string(), b: z.string(), kappa: z.number().nullable(), n: z.number().int() }),
  ),
  controls: z.object({ count: z.number().int() }),
  packages: z.array(PackageRow),
  activeHours: z.number(),
  /** Labels carrying active time, and all labels counted: the pace rests on the first. */
  timedLabels: z.number().int(),
  labels: z.number().int(),
  /**
   * What the figures above leave out, so they reconcile with the Datasets card and with the
   * labels a bundle brought back: people's labels on controls, on older wordings of edited units
   * and on deleted units, and reference labels imported with the dataset (a source, not a person).
   */
  notCounted: z.object({
    people: z.array(
      z.object({
        name: z.string(),
        controls: z.number().int(),
        olderWordings: z.number().int(),
        deletedUnits: z.number().int(),
        /** Fixed policy: labels on items assigned to others, outside this person's progress. */
        outsideAssignment: z.number().int(),
      }),
    ),
    sources: z.array(z.object({ name: z.string(), labels: z.number().int() })),
  }),
  /**
   * Hours of labelling left at the current pace (median seconds per timed label); null without
   * a pace, i.e. when no label carries recorded time.
   */
  projectedHours: z.number().nullable(),
  /**
   * Labels placed per day over the days the last week's labelling spans (`paceDays`: from its
   * first label to now, at least 1, at most 7), and the day the work would end at that one rate.
   */
  labelsPerDay: z.number(),
  paceDays: z.number(),
  projectedFinish: z.string().nullable(),
  /**
   * Only on a laptop (a workspace opened from a work package): the package annotator's share,
   * which the figures above cover, and which `projectedHours` and `projectedFinish` forecast
   * alone. Absent in a lead's workspace.
   */
  laptop: z
    .object({
      annotator: z.string(),
      items: z.number().int(),
      /** Targets of her share, controls left out, and those she has labelled. */
      targets: z.number().int(),
      done: z.number().int(),
      /** Controls the package carried (without their answers). */
      controls: z.number().int(),
    })
    .optional(),
})
export type Dashboard = z.infer<typeof Dashboard>

export const GuidelinesVersion = z.object({
  version: z.number().int(),
  body: z.string(),
  author: z.string().nullable(),
  createdAt: z.string(),
})
export type GuidelinesVersion = z.infer<typeof GuidelinesVersion>

export const ControlInput = z.object({ targetId: z.number().int(), verdict: z.string() })

/** Calls of the annotation project area. Names read `projects.verb`. */
export const projectsCalls = {
  'projects.plan': call(z.object({ datasetId: z.number().int() }), Plan),
  /** Sets k, the policy, rates and named annotators; fixed policy also (re)draws assignments. */
  'projects.setPlan': call(PlanInput, Plan),
  'projects.dashboard': call(z.object({ datasetId: z.number().int() }), Dashboard),
  'projects.guidelines': call(
    z.object({ datasetId: z.number().int(), annotatorId: z.number().int().optional() }),
    z.object({
      current: GuidelinesVersion.nullable(),
      /** Older versions, newest first (bodies included: the history is the point). */
      history: z.array(GuidelinesVersion),
      /**
       * True when this annotator has not yet read the current version: before their first label,
       * or after the lead published a newer version than the one they read.
       */
      mustRead: z.boolean(),
      /** The version this annotator last said they read (null: none yet, or no annotator given). */
      readVersion: z.number().int().nullable().optional(),
    }),
  ),
  'projects.saveGuidelines': call(
    z.object({
      datasetId: z.number().int(),
      body: z.string().max(200_000),
      author: z.string().max(200).optional(),
    }),
    GuidelinesVersion,
  ),
  'projects.readGuidelines': call(
    z.object({ datasetId: z.number().int(), annotatorId: z.number().int(), version: z.number().int() }),
    z.object({ ok: z.literal(true) }),
  ),
  /** Marks targets as controls: from their gold, or with the answers given. */
  'projects.setControls': call(
    z.object({
      datasetId: z.number().int(),
      fromGold: z.array(z.number().int()).max(100_000).default([]),
      /**
       * Every target of the dataset with an adjudicated or imported gold row, and, where a target
       * has none, the dataset's own reference labels (targets its sources disagree on are skipped).
       */
      allGold: z.boolean().default(false),
      /**
       * With allGold, how many of those known answers become controls: a count, or a share of the
       * dataset's targets (by default a tenth), drawn from the plan's seed.
       */
      sample: z
        .union([
          z.object({ count: z.number().int().min(1).max(10_000_000) }).strict(),
          z.object({ share: z.number().gt(0).max(1) }).strict(),
        ])
        .optional(),
      /** Confirms that every target may become a control, leaving nothing to label (refused otherwise). */
      everyTarget: z.boolean().default(false),
      /** Say what would be marked and change nothing (the UI's confirmation). */
      preview: z.boolean().default(false),
      answers: z.array(ControlInput).max(100_000).default([]),
      /**
       * Answers as typed or loaded: `item,variant,unit,verdict` or `targetId,verdict` per line
       * (src/shared/controlLines.ts). A line naming nothing in the dataset refuses the whole call.
       */
      lines: z.string().max(20_000_000).optional(),
    }),
    z.object({
      /** Targets newly marked as controls. */
      added: z.number().int(),
      /** Targets asked for that were controls already (their answer is brought up to date). */
      already: z.number().int().default(0),
      controls: z.number().int(),
      /** Targets left out because the dataset's sources disagree on them (allGold only). */
      skipped: z.number().int(),
      /** The dataset's targets (current units), controls included. */
      targets: z.number().int(),
      /** Targets that are no control afterwards: what is left to label. */
      toLabel: z.number().int(),
      /** True when nothing was changed: the figures say what the call would do. */
      preview: z.boolean(),
    }),
  ),
  'projects.clearControls': call(
    z.object({ datasetId: z.number().int(), targetIds: z.array(z.number().int()).max(100_000) }),
    z.object({ controls: z.number().int() }),
  ),
  /** People with labels here whom the plan does not name (counted in agreement, gold and Compare). */
  'projects.outsidePlan': call(
    z.object({ datasetId: z.number().int() }),
    z.object({ people: z.array(z.string()) }),
  ),
  'projects.controls': call(
    z.object({ datasetId: z.number().int() }),
    z.array(z.object({ targetId: z.number().int(), verdict: z.string(), source: z.enum(['gold', 'file']) })),
  ),
  /** Writes one annotator's work package (dataset, assignment, guidelines, settings). */
  'projects.exportPackage': call(
    z.object({
      datasetId: z.number().int(),
      annotator: z.string().trim().min(1).max(200),
      out: z.string().trim().min(1).max(4096).optional(),
    }),
    z.object({
      id: z.string(),
      file: z.string(),
      annotator: z.string(),
      items: z.number().int(),
      assignedItems: z.number().int(),
      targets: z.number().int(),
    }),
  ),
  /** Opens a package in this workspace (the annotator's laptop); the same package twice changes nothing. */
  'projects.openPackage': call(
    z.object({ source: FileSource }),
    z.object({
      id: z.string(),
      dataset: z.string(),
      datasetId: z.number().int(),
      annotator: z.string(),
      items: z.number().int(),
      alreadyOpen: z.boolean(),
      /** A newer package for the dataset this laptop already holds: what it changed here. */
      refreshed: PackageRefresh.nullable(),
    }),
  ),
}
