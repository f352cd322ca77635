import { z } from 'zod'
import { EvidenceSpan, Triplet, UnitKind } from '../../shared/domain'

/**
 * An annotation bundle: one annotator's labels on one dataset, as JSON lines. The first line
 * is the header; every other line is one label. Targets are named by content (item ext_id,
 * candidate variant, unit kind + text, and which occurrence of that text) because row ids
 * differ between two workspaces that imported the same file.
 *
 * Version 2 carries every label of the annotator, also those on unit versions that are no
 * longer current (replaced by an edit, or deleted); version 1 carried current units only. Both
 * named the dataset by its content now, so an edit of a unit on either side made them refused;
 * they are still read, and merge as they did. Version 3 names the dataset by its origin (the
 * dataset as imported, export/datasetOrigin.ts) and each label's unit version by its lineage
 * (export/bundleLineage.ts), so it merges whatever units either side edited since.
 */
export const BUNDLE_FORMAT = 'factlab-bundle'
export const BUNDLE_VERSION = 3
/** Every version this FactLab reads, for the message that refuses a newer one. */
export const READABLE_VERSIONS = [1, 2, 3] as const

const Hash = z.string().regex(/^[0-9a-f]{64}$/)

export const BundleHeader = z.object({
  format: z.literal(BUNDLE_FORMAT),
  version: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  dataset: z.object({
    name: z.string(),
    /** The dataset's content when the bundle was written. */
    contentHash: Hash,
    /** The dataset as imported (version 3). */
    originHash: Hash.optional(),
  }),
  annotator: z.object({ name: z.string().trim().min(1) }),
  exportedAt: z.string(),
  labels: z.number().int().nonnegative(),
  /** The work package the labels were made in (projects/packageReturn.ts), when there was one. */
  package: z.object({ id: z.string() }).optional(),
  /**
   * The guidelines version the annotator last read in full there, and when: the lead sees it
   * after the merge. Older bundles lack it (and older FactLabs pass over it).
   */
  guidelinesRead: z.object({ version: z.number().int().min(1), at: z.string().max(64) }).optional(),
})
export type BundleHeader = z.infer<typeof BundleHeader>

const Occurrence = z.number().int().nonnegative()
/** More versions with one wording in one lineage than a person makes; bounds what a merge recreates. */
const MAX_REPEAT = 99

/** The unit at the end of a version chain: current, or deleted. */
export const LatestKey = z.object({
  unit: z.string(),
  /** 0 for the first such unit (current, or deleted) with this text in its list, 1 for a repeat, … */
  occurrence: Occurrence,
  deleted: z.literal(true).optional(),
})
export type LatestKey = z.infer<typeof LatestKey>

export const TargetKey = z
  .object({
    item: z.string(),
    variant: z.string(),
    kind: UnitKind,
    /** The text of the very version the label was given on. */
    unit: z.string(),
    /**
     * For the latest version of a unit: 0 for the first unit with this kind and text in its
     * item/candidate, 1 for a repeat, … For an earlier version: how many versions with its text
     * lie between it and the latest one.
     */
    occurrence: Occurrence,
    /** The unit was deleted (it can be restored; its labels are kept). */
    deleted: z.literal(true).optional(),
    /** Set when the label is on an earlier version of a unit, replaced by an edit since. */
    earlier: z
      .object({
        /** Texts of the versions between this one and the latest, the next newer first. */
        newer: z.array(z.string()),
        latest: LatestKey,
      })
      .optional(),
    /** A triplet's parts, for a version that may have to be recreated on the other side. */
    triplet: Triplet.nullable().optional(),
    /** Version 3: the unit version by its lineage, what a merge finds it by. */
    lineage: z
      .object({ unit: z.string(), occurrence: Occurrence, repeat: Occurrence.max(MAX_REPEAT) })
      .optional(),
  })
  .refine(
    // For an earlier version the count follows from the path; a bundle that disagrees was edited.
    (k) => !k.earlier || k.occurrence === k.earlier.newer.filter((t) => t === k.unit).length,
    {
      message: "an earlier version's occurrence must count the repeats of its text among the newer versions",
      path: ['occurrence'],
    },
  )
export type TargetKey = z.infer<typeof TargetKey>

export const LabelState = z.object({
  verdict: z.string().nullable(),
  evidence: z.array(EvidenceSpan),
  note: z.string().nullable(),
  seconds: z.number().nonnegative(),
})
export type LabelState = z.infer<typeof LabelState>

export const HistoryState = LabelState.extend({
  action: z.string(),
  at: z.string(),
  /**
   * The guidelines version this state was given under; null where it is not known (a label made
   * with no guidelines, or merged from a bundle that named none). Absent in older bundles.
   */
  guidelinesVersion: z.number().int().min(1).nullable().optional(),
})
export type HistoryState = z.infer<typeof HistoryState>

export const BundleLabel = LabelState.extend({
  target: TargetKey,
  /** The guidelines version the label was given under where it was made (absent in older bundles). */
  guidelinesVersion: z.number().int().min(1).nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  history: z.array(HistoryState),
})
export type BundleLabel = z.infer<typeof BundleLabel>

/** Two label states are the same if a person would see no difference between them. */
export function sameState(
  a: Pick<LabelState, 'verdict' | 'evidence' | 'note'>,
  b: Pick<LabelState, 'verdict' | 'evidence' | 'note'>,
): boolean {
  return (
    a.verdict === b.verdict && (a.note ?? null) === (b.note ?? null) && sameEvidence(a.evidence, b.evidence)
  )
}

function sameEvidence(a: LabelState['evidence'], b: LabelState['evidence']): boolean {
  return (
    a.length === b.length &&
    a.every((s, i) => s.pane === b[i]!.pane && s.start === b[i]!.start && s.end === b[i]!.end)
  )
}
