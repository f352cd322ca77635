import type { CallDef } from './define'

/** Calls of the metrics area. Names read `metrics.verb`. */
export const metricsCalls = {} satisfies Record<string, CallDef>
