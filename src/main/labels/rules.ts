import type { GoldRule } from '../../shared/goldRule'
import type { Binary } from '../../shared/labelSchemas'

/**
 * The gold rule as a decision over one target's labels. Pure: callers give the labels as value
 * codes (indexes into their own value list) with the annotator of each, and get the gold code or
 * −1 (no gold). Adjudicated and imported gold is not seen here: it always wins, so callers check
 * it first.
 */
export type GoldDecider = (codes: ArrayLike<number>, annotators: ArrayLike<number>) => number

export interface RuleContext {
  /** supported / unsupported of each value code (null: outside the schema) */
  binary: readonly (Binary | null)[]
  /** annotator name → id, to find a named gold annotator */
  annotatorIds: ReadonlyMap<string, number>
  /** leave this annotator out (humans as judges: the gold the others make) */
  exclude?: number
  /** ids of the annotators that are the dataset's own reference labels (kind `source`) */
  sourceIds?: ReadonlySet<number>
}

export function compileGoldRule(rule: GoldRule, ctx: RuleContext): GoldDecider {
  const exclude = ctx.exclude ?? -1
  if (rule.kind === 'annotator') {
    const id = ctx.annotatorIds.get(rule.annotator)
    // Left out (scoring that very annotator) or unknown: nobody's labels are the gold.
    if (id === undefined || id === exclude) return () => -1
    return (codes, annotators) => {
      for (let k = 0; k < codes.length; k++) if (annotators[k] === id) return codes[k]!
      return -1
    }
  }
  const tally = new Map<number, number>()
  const only = rule.of === 'sources' ? (ctx.sourceIds ?? new Set<number>()) : null
  return (codes, annotators) => {
    tally.clear()
    let labels = 0
    for (let k = 0; k < codes.length; k++) {
      if (annotators[k] === exclude) continue
      if (only && !only.has(annotators[k]!)) continue
      labels++
      tally.set(codes[k]!, (tally.get(codes[k]!) ?? 0) + 1)
    }
    if (labels === 0 || labels < rule.minLabels) return -1
    let top = 0
    for (const n of tally.values()) if (n > top) top = n
    const tied = [...tally].filter(([, n]) => n === top).map(([c]) => c)
    if (tied.length === 1) return tied[0]!
    if (rule.tie === 'none') return -1
    // The tie goes to the stated side; of several values on that side, the first in the schema.
    const side = tied.filter((c) => ctx.binary[c] === rule.tie).sort((a, b) => a - b)
    return side[0] ?? -1
  }
}
