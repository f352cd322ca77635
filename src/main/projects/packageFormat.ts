import { z } from 'zod'
import { EvidenceSpan, Triplet, UnitKind } from '../../shared/domain'
import { LabelSchema } from '../../shared/labelSchemas'

/**
 * A work package: what a lead hands one annotator's laptop, as JSON lines. The first line is
 * the header (dataset name, schema, settings and content hash; the annotator; the plan; the
 * guidelines; the items assigned), every other line one item with its candidates and current
 * units. The content hash is the one bundles carry, so the laptop's bundle fits the lead's
 * dataset, and opening checks that the rebuilt dataset hashes the same.
 */
export const PACKAGE_FORMAT = 'factlab-package'
export const PACKAGE_VERSION = 1

/** A unit named by content, as a control or a label in a package names it. */
const UNIT_PLACE = {
  item: z.string(),
  variant: z.string(),
  kind: UnitKind,
  unit: z.string(),
  /**
   * Which of the identically worded units in that place (0: the first by position), so two units
   * with the same wording stay apart: one a control and its twin ordinary work, each with its own
   * label. Older packages lack it: the first.
   */
  occurrence: z.number().int().min(0).default(0),
}

export const PackageHeader = z.object({
  format: z.literal(PACKAGE_FORMAT),
  version: z.literal(PACKAGE_VERSION),
  id: z.string().uuid(),
  dataset: z.object({
    name: z.string().min(1),
    labelSchema: LabelSchema,
    settings: z.record(z.string(), z.unknown()),
    contentHash: z.string().regex(/^[0-9a-f]{64}$/),
    /** The lead's dataset as imported (export/datasetOrigin.ts); older packages lack it. */
    originHash: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
  }),
  annotator: z.object({
    name: z.string().trim().min(1),
    /**
     * The guidelines version this person last read in full at the lead's (from an earlier
     * laptop's bundle, say): the laptop does not ask again for the version it carries. Older
     * packages lack it.
     */
    guidelinesRead: z.object({ version: z.number().int().min(1), at: z.string().max(64) }).optional(),
  }),
  /** The lead's plan; the laptop keeps it as its own, so both show the same k, policy and seed. */
  plan: z.object({
    k: z.number().int().min(1),
    policy: z.enum(['open', 'fixed']),
    controlRate: z.number().min(0).max(1),
    /** The seed of the lead's split. Older packages lack it. */
    seed: z.number().int().min(0).optional(),
  }),
  guidelines: z.object({ version: z.number().int().min(1), body: z.string() }).nullable(),
  /** ext_ids of the items this annotator is to label; null: every item (open policy). */
  assignment: z.array(z.string()).nullable(),
  /**
   * Control targets, named by content, without their answers: the laptop's queue mixes them in
   * at the plan's rate, and the lead scores them once the bundle is back. Older packages lack it.
   */
  controls: z.array(z.object(UNIT_PLACE)).default([]),
  /**
   * The annotator's own current labels at the lead's, so her laptop shows that work as done and
   * does not offer it again. Never anyone else's. Older packages lack it.
   */
  labels: z
    .array(
      z.object({
        ...UNIT_PLACE,
        verdict: z.string().min(1),
        evidence: z.array(EvidenceSpan),
        note: z.string().nullable(),
        seconds: z.number().nonnegative(),
        guidelinesVersion: z.number().int().min(1).nullable(),
        updatedAt: z.string().max(64),
      }),
    )
    .default([]),
  items: z.number().int().nonnegative(),
  createdAt: z.string(),
})
export type PackageHeader = z.infer<typeof PackageHeader>

export const PackageItem = z.object({
  extId: z.string(),
  position: z.number().int(),
  question: z.string().nullable(),
  reference: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  candidates: z.array(
    z.object({
      variant: z.string(),
      text: z.string(),
      origin: z.string(),
      metadata: z.record(z.string(), z.unknown()),
    }),
  ),
  units: z.array(
    z.object({
      kind: UnitKind,
      /** The candidate a triplet/sentence/whole unit belongs to; null for facts. */
      variant: z.string().nullable(),
      text: z.string(),
      triplet: Triplet.nullable(),
      position: z.number(),
      /**
       * The wordings this unit had before on the lead's side, when the lead edited it: a
       * refreshed package finds the laptop's unit by one of them (packageRefresh.ts). Older
       * packages lack it.
       */
      was: z.array(z.string()).optional(),
    }),
  ),
})
export type PackageItem = z.infer<typeof PackageItem>
