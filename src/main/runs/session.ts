import type { JudgeContext } from '../judges/types'
import type { Db } from '../store/connection'
import type { RunCaller } from './caller'
import type { MethodRegistry } from './registry'
import type { RunRecord } from './repo'
import type { TickWrites } from './tickWrites'

/**
 * What the job functions (judge, extract, improve) get from the engine for one run. It sits apart
 * from engine.ts so that the jobs the engine calls do not import the engine back.
 */
export interface RunSession {
  db: Db
  run: RunRecord
  registry: MethodRegistry
  caller: RunCaller
  /** The run's bookkeeping writes, committed together once per turn of the event loop. */
  writes: TickWrites
  signal: AbortSignal
  /** The method context with `call` bound to the run; `onCallId` learns which call a task used. */
  context(onCallId?: (id: number) => void): JudgeContext
  progress(done: number, total: number): void
  stop(): void
}
