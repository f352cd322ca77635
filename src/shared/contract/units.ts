import type { CallDef } from './define'

/** Calls of the units area. Names read `units.verb`. */
export const unitsCalls = {} satisfies Record<string, CallDef>
