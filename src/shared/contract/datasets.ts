import type { CallDef } from './define'

/** Calls of the datasets area. Names read `datasets.verb`. */
export const datasetsCalls = {} satisfies Record<string, CallDef>
