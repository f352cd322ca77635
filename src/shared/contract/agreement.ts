import type { CallDef } from './define'

/** Calls of the agreement area. Names read `agreement.verb`. */
export const agreementCalls = {} satisfies Record<string, CallDef>
