import type { CallDef } from './define'

/** Calls of the annotate area. Names read `annotate.verb`. */
export const annotateCalls = {} satisfies Record<string, CallDef>
