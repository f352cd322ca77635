import { z } from 'zod'

/**
 * How a dataset's gold is made where no one has adjudicated (an adjudicated or imported gold row
 * always wins): the majority of the labels (everyone's, or the dataset's own reference labels') with a stated tie rule and a minimum number of
 * labels, or one named annotator's labels.
 */
export const GOLD_TIE_RULES = ['none', 'unsupported', 'supported'] as const
export type GoldTieRule = (typeof GOLD_TIE_RULES)[number]
export const GOLD_MAJORITY_OF = ['everyone', 'sources'] as const
export type GoldMajorityOf = (typeof GOLD_MAJORITY_OF)[number]

export const GoldRule = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('majority'),
    /** none: a tie has no gold until adjudicated; unsupported / supported: the tie goes that way. */
    tie: z.enum(GOLD_TIE_RULES).default('none'),
    /** Targets with fewer labels than this have no gold. */
    minLabels: z.number().int().min(1).max(1000).default(1),
    /**
     * everyone: every annotator's labels count; sources: only the dataset's own reference labels
     * (the experts of a release such as SummEval), so people labelling later never outvote them.
     */
    of: z.enum(GOLD_MAJORITY_OF).default('everyone'),
  }),
  z.object({
    kind: z.literal('annotator'),
    /** This annotator's label is the gold. */
    annotator: z.string().trim().min(1),
  }),
])
export type GoldRule = z.infer<typeof GoldRule>

export const DEFAULT_GOLD_RULE: GoldRule = { kind: 'majority', tie: 'none', minLabels: 1, of: 'everyone' }

/**
 * The rule a dataset imported with its experts' ratings starts with (SummEval): the majority of
 * those ratings, the gold the release's paper and DCR measure against.
 */
export const SOURCES_GOLD_RULE: GoldRule = { kind: 'majority', tie: 'none', minLabels: 1, of: 'sources' }

/** The default: strict majority, ties without gold (the gold every figure used before rules). */
export function isDefaultGoldRule(rule: GoldRule): boolean {
  return rule.kind === 'majority' && rule.tie === 'none' && rule.minLabels <= 1 && rule.of !== 'sources'
}

/** The rule in words, for the CLI, the history and the settings panel. */
export function describeGoldRule(rule: GoldRule): string {
  if (rule.kind === 'annotator') return `annotator "${rule.annotator}" is gold`
  const tie = rule.tie === 'none' ? 'a tie has no gold until adjudicated' : `a tie counts as ${rule.tie}`
  const min = rule.minLabels > 1 ? `, at least ${rule.minLabels} labels per target` : ''
  const who =
    rule.of === 'sources'
      ? "majority of the dataset's own reference labels (its sources, such as a release's experts); people's labels do not count"
      : "majority of everyone's labels"
  return `${who}; ${tie}${min}`
}
