import { countOf, formatCount } from './plural'
import { ALL_REUSED } from './reusedReplies'

/*
 * How a run is named wherever people see it (the Judges view, the Compare view, metrics and
 * reports), so the same run never reads as two different ones. Pure: no I/O, no zod.
 */

/** Said where a run's cost is not known: it was made with no price, and none was entered since. */
export const NO_PRICE = 'no price set'

/** The hover text beside NO_PRICE where a cost would stand. */
export const NO_PRICE_TITLE =
  'This run was made with no price for its model and none has been entered since: its cost is unknown, not $0'

/** A run made with no price (none entered since either) whose calls cost an unknown amount, not $0. */
export function priceUnknown(basis: 'run' | 'model' | 'none', calls: number): boolean {
  return basis === 'none' && calls > 0
}

/**
 * A repeat in words. `repeatIndex` is stored from 0; people count repeats from 1, the first run of
 * a config being repeat 1, so only the later ones are marked: index 1 reads "repeat 2".
 */
export function repeatWord(repeatIndex: number): string | null {
  return repeatIndex > 0 ? `repeat ${repeatIndex + 1}` : null
}

/** The mode in words when it is not the usual call-by-call one (batch costs about half). */
export function modeWord(mode: 'sync' | 'batch' | undefined): string | null {
  return mode === 'batch' ? 'batch' : null
}

/**
 * How a run's answered calls were priced, in its name: "batch" when a provider batch answered
 * them all, "partly batch: 15 of 30 calls" when only some (a batch run resumed call by call, or
 * the reverse), nothing when none. Its mode says how it goes now, which a switch changes; this
 * says what was paid, so the name cannot claim a batch price it did not get, nor miss one it did.
 */
export function batchNameWord(batchCalls: number, calls: number): string | null {
  if (batchCalls <= 0) return null
  if (batchCalls >= calls) return 'batch'
  return `partly batch: ${formatCount(batchCalls)} of ${countOf(calls, 'call')}`
}

/**
 * What a cost figure needs said beside it (see src/main/runs/pricing.ts): a run priced with prices
 * entered after it was made, or one that made calls with no price at all, whose 0 is not "free".
 */
export function costMark(basis: 'run' | 'model' | 'none', calls: number): string | null {
  if (basis === 'model') return 'at prices entered after the run'
  if (priceUnknown(basis, calls)) return NO_PRICE
  return null
}

/**
 * At what price a run's answered calls were paid, where a batch was involved: all at the batch
 * price, or only some, as when a batch run was resumed call by call (or the reverse). The run's
 * mode says how it goes now, not what its calls cost; this says that, in the same words everywhere.
 */
export function batchPriceWords(batchCalls: number, calls: number): string | null {
  if (batchCalls <= 0) return null
  if (batchCalls >= calls) return 'at the batch price'
  return `partly at the batch price: ${formatCount(batchCalls)} of ${countOf(calls, 'call')}`
}

/** What a run's cost rests on: its money, where the price came from, and how its calls were answered. */
export interface RunCostFacts {
  cost: number
  costBasis: 'run' | 'model' | 'none'
  /** Calls the provider answered; those from the cache and those that failed apart. */
  calls: number
  cached: number
  callErrors: number
  /** Of `calls`, those answered through a provider batch (at the batch price). */
  batchCalls?: number
}

/** Every answer came from the response cache: nothing was paid, but that is not what the method costs. */
export function answeredFromCache(r: Omit<RunCostFacts, 'cost' | 'costBasis'>): boolean {
  return r.calls === 0 && r.cached > 0 && r.callErrors === 0
}

/**
 * A run's cost as `judge run`, `judge status`, the Judges view, `metrics` and Compare all give it:
 * no amount (null) where no price is known, so no $0 stands for an unknown cost, and the marks a
 * reader needs beside an amount (at the batch price, wholly or partly; priced later; every reply
 * reused).
 */
export function runCostParts(r: RunCostFacts): { amount: number | null; marks: string[] } {
  if (priceUnknown(r.costBasis, r.calls)) return { amount: null, marks: [NO_PRICE] }
  const marks = [
    batchPriceWords(r.batchCalls ?? 0, r.calls),
    costMark(r.costBasis, r.calls),
    answeredFromCache(r) ? ALL_REUSED : null,
  ]
  return { amount: r.cost, marks: marks.filter((m): m is string => m !== null) }
}

/** The same in one line, the amount as `money` writes it: "0.0000 (all replies reused, nothing sent)", "unknown (no price set)". */
export function runCostText(r: RunCostFacts, money: (x: number) => string): string {
  const { amount, marks } = runCostParts(r)
  const said = marks.length > 0 ? ` (${marks.join(', ')})` : ''
  return `${amount === null ? 'unknown' : money(amount)}${said}`
}

/** What a run is heading for: unknown where calls left have no price, or where the cost so far is unknown. */
export function expectedAmount(r: RunCostFacts & { expectedCost: number | null }): number | null {
  return runCostParts(r).amount === null ? null : r.expectedCost
}
