/*
 * How a run is named wherever people see it (the Judges view, the Compare view, metrics and
 * reports), so the same run never reads as two different ones. Pure: no I/O, no zod.
 */

/** Said where a run's cost is not known: it was made with no price, and none was entered since. */
export const NO_PRICE = 'no price set'

/** A run made with no price (none entered since either) whose calls cost an unknown amount, not $0. */
export function priceUnknown(basis: 'run' | 'model' | 'none', calls: number): boolean {
  return basis === 'none' && calls > 0
}

/** Said beside a run whose every answer came from the response cache: it paid nothing, but replayed another run. */
export const FROM_CACHE = 'answered from cache'

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
 * What a cost figure needs said beside it (see src/main/runs/pricing.ts): a run priced with prices
 * entered after it was made, or one that made calls with no price at all, whose 0 is not "free".
 */
export function costMark(basis: 'run' | 'model' | 'none', calls: number): string | null {
  if (basis === 'model') return 'at prices entered after the run'
  if (priceUnknown(basis, calls)) return NO_PRICE
  return null
}
