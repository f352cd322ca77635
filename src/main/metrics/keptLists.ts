import type { NarrowingSeries } from '../../shared/contract/metrics'
import type { Hit, NextPick } from './judgeLists'

/**
 * The Compare view's lists worked out on another thread (compareInBackground.ts) from one
 * snapshot's columns, kept with that snapshot: a changed workspace has a new snapshot, so a list
 * worked out before the change is never served after it.
 */
export interface BackgroundLists {
  /** The chart at its ten checkpoints; null when the labels carry no times to draw it from. */
  narrowing: NarrowingSeries[] | null
  /** The first `limit` targets to label next: any shorter list is their first part. */
  labelNext: { limit: number; picks: NextPick[] }
  /** Every run's disagreements counted, the first `limit` listed (runs in id order, all variants). */
  disagreements: { limit: number; total: number; shown: Hit[] }
}

const kept = new WeakMap<object, BackgroundLists>()

export function backgroundLists(snapshot: object): BackgroundLists | undefined {
  return kept.get(snapshot)
}

export function keepLists(snapshot: object, lists: BackgroundLists): void {
  kept.set(snapshot, lists)
}
