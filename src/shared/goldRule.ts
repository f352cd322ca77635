import { z } from 'zod'

/**
 * How a dataset's gold is made where no one has adjudicated (an adjudicated or imported gold row
 * always wins): the majority of the annotators with a stated tie rule and a minimum number of
 * labels, or one named annotator's labels.
 */
export const GOLD_TIE_RULES = ['none', 'unsupported', 'supported'] as const
export type GoldTieRule = (typeof GOLD_TIE_RULES)[number]

export const GoldRule = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('majority'),
    /** none: a tie has no gold until adjudicated; unsupported / supported: the tie goes that way. */
    tie: z.enum(GOLD_TIE_RULES).default('none'),
    /** Targets with fewer labels than this have no gold. */
    minLabels: z.number().int().min(1).max(1000).default(1),
  }),
  z.object({
    kind: z.literal('annotator'),
    /** This annotator's label is the gold. */
    annotator: z.string().trim().min(1),
  }),
])
export type GoldRule = z.infer<typeof GoldRule>

export const DEFAULT_GOLD_RULE: GoldRule = { kind: 'majority', tie: 'none', minLabels: 1 }

/** The default: strict majority, ties without gold (the gold every figure used before rules). */
export function isDefaultGoldRule(rule: GoldRule): boolean {
  return rule.kind === 'majority' && rule.tie === 'none' && rule.minLabels <= 1
}

/** The rule in words, for the CLI, the history and the settings panel. */
export function describeGoldRule(rule: GoldRule): string {
  if (rule.kind === 'annotator') return `annotator "${rule.annotator}" is gold`
  const tie = rule.tie === 'none' ? 'a tie has no gold until adjudicated' : `a tie counts as ${rule.tie}`
  const min = rule.minLabels > 1 ? `, at least ${rule.minLabels} labels per target` : ''
  return `majority of the annotators; ${tie}${min}`
}
