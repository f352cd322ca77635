import { z } from 'zod'

/**
 * Item-level figures (one score per response: a candidate of an item), as the DCR paper
 * reports consistency per summary. Built by src/main/metrics/items/.
 */

const Rate = z.number().nullable()
const Interval = z.tuple([z.number(), z.number()]).nullable()

/** The item scores a correlation can use (metrics/items/scores.ts works each out). */
export const ITEM_SCORE_KINDS = [
  'share-supported',
  'entailment-share',
  'verdict',
  'dcr',
  'rouge1',
  'rouge2',
  'rougeL',
] as const
export const ItemScoreKindSchema = z.enum(ITEM_SCORE_KINDS)

export const ItemCorrelationSchema = z.object({
  n: z.number().int(),
  pearson: Rate,
  pearsonCi: Interval,
  spearman: Rate,
  spearmanCi: Interval,
  kendallTauB: Rate,
  kendallTauBCi: Interval,
  /**
   * How the intervals were made: a percentile bootstrap over responses, or Fisher's z under
   * BOOTSTRAP_MIN_N responses (src/shared/smallSample.ts); null with no interval. Coefficients
   * are null under MIN_CORRELATION_PAIRS responses, however the scores fall.
   */
  ciMethod: z.enum(['bootstrap', 'fisher']).nullable(),
})
export type ItemCorrelationRow = z.infer<typeof ItemCorrelationSchema>

/**
 * The DCR paper's summary level (UniEval's): per item (source document), correlate across its
 * responses, then average over items. Coefficients are null under MIN_CORRELATION_PAIRS items
 * counted. Intervals: a seeded percentile bootstrap over the items averaged
 * (src/main/metrics/stats/levelIntervals.ts), null at ±1 and with no coefficient.
 */
export const SummaryLevelSchema = z.object({
  /** Items whose coefficients were averaged. */
  items: z.number().int(),
  /** Items left out: fewer than two responses scored on both sides, or one side constant. */
  leftOut: z.number().int(),
  pearson: Rate,
  pearsonCi: Interval,
  spearman: Rate,
  spearmanCi: Interval,
  kendallTauB: Rate,
  kendallTauBCi: Interval,
  /** `bootstrap` (items resampled), null with no interval. */
  ciMethod: z.enum(['bootstrap']).nullable(),
})
export type SummaryLevelRow = z.infer<typeof SummaryLevelSchema>

/** One labeller's or judge's item scores on units of one kind, aligned with `ItemLevel.items`. */
export const ItemSeries = z.object({
  /** gold: the human gold; annotator: one person's own labels; judge: a run's verdicts. */
  source: z.enum(['gold', 'annotator', 'judge']),
  runId: z.number().int().nullable(),
  annotator: z.string().nullable(),
  label: z.string(),
  unitKind: z.enum(['fact', 'triplet', 'sentence', 'whole']),
  score: ItemScoreKindSchema,
  /** null where the response has no scored unit of this kind */
  values: z.array(z.number().nullable()),
  /** Units that counted per response. */
  units: z.array(z.number().int()),
  /**
   * DCR runs: responses the run reached with a sentence left unmarked (N/A, failed, or not
   * judged): they get no score, as the judge gives none (Eq. 3 divides by every sentence).
   */
  unmarked: z.number().int().default(0),
  /** Triplets: RefChecker's response label per response. */
  responseLabels: z.array(z.string().nullable()).nullable(),
})
export type ItemSeries = z.infer<typeof ItemSeries>

/** A judge's (or annotator's) item scores against the human item scores of the same unit kind. */
export const ItemCorrelationRowSchema = z.object({
  source: z.enum(['annotator', 'judge']),
  runId: z.number().int().nullable(),
  annotator: z.string().nullable(),
  label: z.string(),
  unitKind: z.enum(['fact', 'triplet', 'sentence', 'whole']),
  score: ItemScoreKindSchema,
  /** What the human side is: the gold's item score of this unit kind (others' gold for annotators). */
  humanScore: ItemScoreKindSchema,
  /**
   * The units the human item score comes from: the same kind, except a DCR run on a dataset
   * whose people score whole responses (SummEval), which is set against those scores.
   */
  humanUnitKind: z.enum(['fact', 'triplet', 'sentence', 'whole']),
  /** Pooled: every response one pair. */
  overall: ItemCorrelationSchema,
  summaryLevel: SummaryLevelSchema,
  /**
   * Per variant (system) mean scores, correlated across variants; n = variants. Its `bootstrap`
   * interval resamples items and variants both; under BOOTSTRAP_MIN_N variants the wider of that
   * and Fisher's z over the variants is given.
   */
  systemLevel: ItemCorrelationSchema,
  byVariant: z.record(z.string(), ItemCorrelationSchema),
})
export type ItemCorrelationLine = z.infer<typeof ItemCorrelationRowSchema>

export const ItemLevel = z.object({
  /** Bootstrap resamples behind every interval (seeded with the report's seed). */
  replicates: z.number().int(),
  /** Each score kind in words. */
  definitions: z.record(z.string(), z.string()),
  items: z.array(
    z.object({
      candidateId: z.number().int(),
      itemId: z.number().int(),
      extId: z.string(),
      variant: z.string(),
    }),
  ),
  series: z.array(ItemSeries),
  correlations: z.array(ItemCorrelationRowSchema),
})
export type ItemLevel = z.infer<typeof ItemLevel>
