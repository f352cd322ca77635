// rpc/ is the contract's entry point for every transport: dispatch.ts validates a call and runs
// its handler; handlers/ binds each call of src/shared/contract to the services.
import { z } from 'zod'
import {
  type CallInput,
  type CallName,
  type CallOutput,
  contract,
  type RpcResult,
} from '../../shared/contract'
import { zodProblems } from '../../shared/zodProblems'
import { ServiceError, unavailableError } from '../app/errors'
import { storageRefusal } from '../store/storageTrouble'

export type Handler<K extends CallName> = (
  input: z.infer<(typeof contract)[K]['input']>,
) => CallOutput<K> | Promise<CallOutput<K>>
export type Handlers = { [K in CallName]: Handler<K> }

function isCallName(name: string): name is CallName {
  return Object.hasOwn(contract, name)
}

/**
 * The one entry point both transports use: unknown calls are refused, input is parsed by the
 * contract before any service sees it, and output is checked on the way out.
 */
export async function dispatch(
  handlers: Handlers,
  name: string,
  rawInput: unknown,
  /** The open workspace, named when the disk under it is full or it may not be written. */
  workspaceFile?: string,
): Promise<RpcResult<unknown>> {
  if (!isCallName(name))
    return { ok: false, error: { code: 'unknown_call', message: `No call named "${name}"` } }
  const def = contract[name]
  const parsed = def.input.safeParse(rawInput ?? {})
  if (!parsed.success) {
    return { ok: false, error: { code: 'bad_input', message: `${name}: ${zodProblems(parsed.error)}` } }
  }
  try {
    const handler = handlers[name] as (input: unknown) => unknown
    const value = await handler(parsed.data)
    const checked = def.output.safeParse(value)
    if (checked.success) return { ok: true, value: checked.data }
    // A malformed answer is a bug in main; say so rather than hand the renderer bad data.
    return {
      ok: false,
      error: {
        code: 'failed',
        message: `${name} returned an answer that breaks the contract: ${z.prettifyError(checked.error)}`,
      },
    }
  } catch (error) {
    if (error instanceof ServiceError)
      return { ok: false, error: { code: error.code, message: error.message } }
    const passing = unavailableError(error)
    if (passing) return { ok: false, error: { code: passing.code, message: passing.message } }
    // A ZodError's message is its issues as JSON: read them out instead.
    const storage = workspaceFile === undefined ? null : storageRefusal(error, workspaceFile)
    const message = storage
      ? storage
      : error instanceof z.ZodError
        ? zodProblems(error)
        : error instanceof Error
          ? error.message
          : String(error)
    return { ok: false, error: { code: 'failed', message } }
  }
}

export type { CallInput, CallName }
