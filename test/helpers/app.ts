import { join } from 'node:path'
import { afterEach } from 'vitest'
import { AppContext } from '../../src/main/app/context'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import type { RpcResult } from '../../src/shared/contract'
import { freshWorkspaceFile } from './freshWorkspace'
import { tmpDirs } from './tmp'

export interface TestApp {
  ctx: AppContext
  /** A call as the renderer makes it: the raw `{ ok, value | error }` answer. */
  call(name: string, input: unknown): Promise<RpcResult<unknown>>
  /** A call that must succeed; a refusal fails the test with its code and message. */
  value<T = unknown>(name: string, input: unknown): Promise<T>
}

/** Wraps an open app so tests talk to it through the same dispatch the transports use. */
export function rpcOn(ctx: AppContext): TestApp {
  const handlers = buildHandlers(ctx)
  const call = (name: string, input: unknown) => dispatch(handlers, name, input)
  return {
    ctx,
    call,
    async value<T>(name: string, input: unknown): Promise<T> {
      const r = await call(name, input)
      if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`)
      return r.value as T
    },
  }
}

/**
 * Opens apps on fresh workspaces (or on a given workspace file) and closes them after each test,
 * so a failing assertion never leaves a database open.
 */
export function testApps(): (file?: string) => TestApp {
  const tmp = tmpDirs()
  const open: AppContext[] = []
  afterEach(() => {
    for (const c of open.splice(0)) c.close()
  })
  return (file) => {
    const ctx = new AppContext(file ?? freshWorkspaceFile(join(tmp(), 'w.factlab')), { driver: 'browser' })
    open.push(ctx)
    return rpcOn(ctx)
  }
}
