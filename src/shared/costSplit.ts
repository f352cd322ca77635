import { formatCount } from './plural'

/*
 * A run's paid tokens split by the price each was paid at, and the money of each part, in the
 * same words wherever a run's cost is shown (`judge run`, `judge status`, the Judges view,
 * `metrics` and its reports, the Compare view's cost column and chart). Prompt tokens read from
 * the provider's prompt cache and those written to it cost other than the rest (Anthropic bills
 * a cache read at a tenth of the input price), so a cost alone does not say whether caching paid.
 * Pure: no I/O, no zod (the contract's CostSplit validates the same shape).
 */

/** One part: its tokens, and their money (null where it cannot be told: no price is known). */
export interface SplitPart {
  tokens: number
  cost: number | null
}

/**
 * Tokens of the calls a provider answered (cache hits of the response cache cost nothing and are
 * left out): prompt tokens neither read from nor written to the prompt cache, those read, those
 * written, and the reply's. Each part's money is after the batch discount where a batch answered,
 * so the four add up to the run's cost.
 */
export interface CostSplit {
  uncached: SplitPart
  cacheRead: SplitPart
  cacheWrite: SplitPart
  output: SplitPart
}

export type SplitKey = keyof CostSplit

/** The parts in the order they are said, with their words. */
export const SPLIT_PARTS: readonly { key: SplitKey; words: string; json: string }[] = [
  { key: 'uncached', words: 'uncached', json: 'uncached' },
  { key: 'cacheRead', words: 'cache read', json: 'cache_read' },
  { key: 'cacheWrite', words: 'cache write', json: 'cache_write' },
  { key: 'output', words: 'output', json: 'output' },
]

/** The words before the parts wherever they are said on one line. */
export const SPLIT_HEAD = 'tokens by price'

/** Nothing was paid for: no call reached a provider (a lexical or imported run, a replay from cache). */
export function splitIsEmpty(s: CostSplit): boolean {
  return SPLIT_PARTS.every((p) => s[p.key].tokens === 0)
}

/**
 * Said under a split whose run has a cost while no part has money: its calls came with money of
 * their own and no price behind it (an imported run, the demo's), so the money cannot be told
 * apart by price. Without it, tokens with no money beside a known cost read as a mistake.
 */
export const SPLIT_PARTS_UNPRICED =
  'the calls came with their cost, not their prices, so no part has its money'

/** The same in a narrow cell (the Judges view's run row), with SPLIT_PARTS_UNPRICED on hover. */
export const SPLIT_PARTS_UNPRICED_SHORT = 'parts not priced'

export function splitPartsUnpriced(s: CostSplit, cost: number | null): boolean {
  return cost !== null && cost > 0 && !splitIsEmpty(s) && SPLIT_PARTS.every((p) => s[p.key].cost === null)
}

/** One part in words: "1,200 cache read ($0.0001)", or without money where none is known. */
export function splitPartWords(part: SplitPart, words: string, money: (x: number) => string): string {
  return `${formatCount(part.tokens)} ${words}${part.cost === null ? '' : ` (${money(part.cost)})`}`
}

/**
 * The parts in words, in order. `unusedCache` false leaves out a prompt-cache part no token went
 * to, as the screens do where each part takes a line of a narrow cell (the Compare view's cost
 * column, the Judges view's run row); the CLI, reports and JSON give all four.
 */
export function costSplitLines(s: CostSplit, money: (x: number) => string, unusedCache = true): string[] {
  return SPLIT_PARTS.filter(
    (p) => unusedCache || p.key === 'uncached' || p.key === 'output' || s[p.key].tokens > 0,
  ).map((p) => splitPartWords(s[p.key], p.words, money))
}

/**
 * The split on one line, as the CLI and reports print it: "tokens by price: 1,200 uncached
 * ($0.0012) · 800 cache read ($0.0001) · 300 cache write ($0.0004) · 500 output ($0.0030)".
 */
export function costSplitText(s: CostSplit, money: (x: number) => string): string {
  return `${SPLIT_HEAD}: ${costSplitLines(s, money).join(' · ')}`
}

/** The split as `metrics --json` gives it (snake_case keys, docs/metrics-json.md). */
export type CostSplitJson = Record<'uncached' | 'cache_read' | 'cache_write' | 'output', SplitPart>

export function costSplitJson(s: CostSplit): CostSplitJson {
  return {
    uncached: { ...s.uncached },
    cache_read: { ...s.cacheRead },
    cache_write: { ...s.cacheWrite },
    output: { ...s.output },
  }
}

/** Back from the JSON shape, for what draws from `metrics --json` (the charts). */
export function costSplitFromJson(j: CostSplitJson): CostSplit {
  return { uncached: j.uncached, cacheRead: j.cache_read, cacheWrite: j.cache_write, output: j.output }
}
