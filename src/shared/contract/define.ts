import type { z } from 'zod'

/** One call of the API: its input and output, validated at every boundary. */
export interface CallDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I
  output: O
}

export function call<I extends z.ZodType, O extends z.ZodType>(input: I, output: O): CallDef<I, O> {
  return { input, output }
}

/** What every transport returns: a value or a typed error, never a raw exception string. */
export type RpcResult<T> = { ok: true; value: T } | { ok: false; error: RpcError }

export interface RpcError {
  /**
   * bad_input: the input failed validation; not_found; conflict; failed: the service refused;
   * unavailable: the store could not take the call now (busy, disk full): nothing changed, and
   * the same call may be made again.
   */
  code: 'bad_input' | 'not_found' | 'conflict' | 'failed' | 'unavailable' | 'unknown_call'
  message: string
}
