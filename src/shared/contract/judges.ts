import type { CallDef } from './define'

/** Calls of the judges area. Names read `judges.verb`. */
export const judgesCalls = {} satisfies Record<string, CallDef>
