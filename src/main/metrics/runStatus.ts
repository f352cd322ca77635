/**
 * A run's per-target statuses and its columns over the targets it reached: what the Compare
 * view's lists read. Pure and without imports, so the lists' worker thread (compareWorker.ts)
 * loads none of the store's or the schemas' code to start.
 */

export const ST_NONE = 0
export const ST_OK = 1
export const ST_NA = 2
export const ST_ERROR = 3

/**
 * A run's columns over the span it reached only: index k is the target at dense index from + k.
 * What the counting passes read; outside the span a run has no verdict (status ST_NONE, bin NONE,
 * code −1).
 */
export interface SpanColumns {
  from: number
  to: number
  bin: Int8Array
  code: Int8Array | Int16Array
  status: Uint8Array
}
