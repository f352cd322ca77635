import { z } from 'zod'
import { EvidenceSpan, UnitKind } from '../domain'
import { LabelSchema } from '../labelSchemas'
import { type CallDef, call } from './define'
import { Viewer } from './viewer'

const Id = z.number().int().positive()
/** null means "not defined" (too few labels, one class only): the UI says so instead of NaN. */
const Figure = z.number().nullable()

export const AgreementFigures = z.object({
  /** Targets labelled by at least two annotators of the scope (people, or the release's). */
  n: z.number().int(),
  percent: Figure,
  /** 95% Wilson interval of `percent` over the `n` shared targets; null with none. */
  percentCi: z.tuple([z.number(), z.number()]).nullable(),
  fleissKappa: Figure,
  krippendorffAlpha: Figure,
  /** Gwet's AC1 and PABAK: robust to a dominant class (null for numeric schemas). */
  ac1: Figure,
  pabak: Figure,
  /** The most common label and its share of all labels on shared targets (the prevalence). */
  dominantLabel: z.string().nullable(),
  dominantShare: Figure,
})
export type AgreementFigures = z.infer<typeof AgreementFigures>

/**
 * Who a pair is: two people; a person and the dataset's own reference labels (a source: `a` is
 * the person, `b` the source); or two of the release's annotators (both sources).
 */
export const PairKind = z.enum(['people', 'person-source', 'sources'])
export type PairKind = z.infer<typeof PairKind>

export const CohenPair = z.object({
  a: z.string(),
  b: z.string(),
  kind: PairKind,
  n: z.number().int(),
  kappa: Figure,
  ac1: Figure,
  pabak: Figure,
})
export type CohenPair = z.infer<typeof CohenPair>

/**
 * Agreement among the release's own annotators (the dataset's sources) with each other: what a
 * benchmark's paper reports, apart from the people's figures and never mixed into them. Null where
 * the dataset has fewer than two sources with labels.
 */
export const SourceAgreement = AgreementFigures.extend({
  /** The sources it is measured among, in name order. */
  names: z.array(z.string()),
  byVariant: z.record(z.string(), AgreementFigures),
})
export type SourceAgreement = z.infer<typeof SourceAgreement>

export const AgreementSummary = AgreementFigures.extend({
  /** Interval α for numeric label schemas, nominal otherwise. */
  alphaLevel: z.enum(['nominal', 'interval']),
  /** Pairs of people: the overall figures above are theirs alone. */
  cohenPairs: z.array(CohenPair),
  /**
   * A person against the dataset's own reference labels (a source: the release's raters), then
   * two sources against each other (`kind` says which): shown apart, never inside the overall figures.
   */
  sourcePairs: z.array(CohenPair),
  /** The release's annotators among themselves (null with fewer than two sources). */
  amongSources: SourceAgreement.nullable(),
  byVariant: z.record(z.string(), AgreementFigures),
  /** κ and α over fewer shared targets than this get no strength word. */
  minSharedTargets: z.number().int(),
})
export type AgreementSummary = z.infer<typeof AgreementSummary>

export const QueueStatus = z.enum(['open', 'adjudicated', 'all'])
export type QueueStatus = z.infer<typeof QueueStatus>

export const GoldDecision = z.object({
  verdict: z.string(),
  source: z.enum(['adjudicated', 'import']),
  adjudicator: z.string().nullable(),
  note: z.string().nullable(),
  updatedAt: z.string(),
  /** The adjudicator had labelled this target themselves (the dataset allows self-adjudication). */
  adjudicatorLabelled: z.boolean(),
})
export type GoldDecision = z.infer<typeof GoldDecision>

export const QueueEntry = z.object({
  targetId: z.number().int(),
  itemId: z.number().int(),
  extId: z.string(),
  question: z.string().nullable(),
  reference: z.string(),
  candidate: z.object({ id: z.number().int(), variant: z.string(), text: z.string() }),
  unit: z.object({
    id: z.number().int(),
    kind: UnitKind,
    text: z.string(),
    version: z.number().int(),
  }),
  /** Each annotator's current verdict, evidence and note, in annotator-name order. */
  labels: z.array(
    z.object({
      annotatorId: z.number().int(),
      annotator: z.string(),
      verdict: z.string(),
      evidence: z.array(EvidenceSpan),
      note: z.string().nullable(),
      updatedAt: z.string(),
    }),
  ),
  gold: GoldDecision.nullable(),
})
export type QueueEntry = z.infer<typeof QueueEntry>

export const QueuePage = z.object({
  labelSchema: LabelSchema,
  /** Disputed targets still waiting for a decision, and those already decided. */
  open: z.number().int(),
  adjudicated: z.number().int(),
  /** Entries matching the requested status, before paging. */
  total: z.number().int(),
  entries: z.array(QueueEntry),
  /** Entries blind mode keeps from this viewer: disputes on targets they have not labelled. */
  hidden: z.number().int(),
  /** The viewer stepped out of labelling this dataset to adjudicate it. */
  steppedOut: z.boolean(),
  allowSelfAdjudication: z.boolean(),
})
export type QueuePage = z.infer<typeof QueuePage>

/** Calls of the agreement area. Names read `agreement.verb`. */
export const agreementCalls = {
  'agreement.summary': call(
    z.object({
      datasetId: Id,
      /** Count control items too (they are left out unless asked). */
      includeControls: z.boolean().optional(),
      /** Only labels given under this guidelines version. */
      guidelinesVersion: z.number().int().optional(),
    }),
    AgreementSummary,
  ),
  /** Targets where annotators disagree, in reading order. */
  'agreement.queue': call(
    z.object({
      datasetId: Id,
      status: QueueStatus.default('open'),
      variant: z.string().optional(),
      offset: z.number().int().nonnegative().default(0),
      limit: z.number().int().positive().max(500).default(100),
      /** Who is looking; while blind, disputes on targets they have not labelled stay out. */
      viewer: Viewer.optional(),
    }),
    QueuePage,
  ),
  /** The annotator stops labelling this dataset to adjudicate it; their labels there are then refused. */
  'agreement.stepOut': call(
    z.object({ datasetId: Id, annotatorId: Id }),
    z.object({ steppedOut: z.boolean() }),
  ),
  /** Whether an adjudicator may decide a target they labelled themselves. */
  'agreement.setSelfAdjudication': call(
    z.object({ datasetId: Id, allow: z.boolean() }),
    z.object({ allowSelfAdjudication: z.boolean() }),
  ),
  /** The adjudicator's decision becomes the target's gold. */
  'agreement.adjudicate': call(
    z.object({
      targetId: Id,
      verdict: z.string(),
      adjudicatorId: Id,
      note: z.string().nullable().optional(),
    }),
    z.object({ targetId: z.number().int(), gold: GoldDecision, open: z.number().int() }),
  ),
} satisfies Record<string, CallDef>
