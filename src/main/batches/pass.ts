import { plannedCalls } from '../judges/plannedCalls'
import { type CandidateTask, requestOf } from '../judges/types'
import { answerFromCache, callHash, RunStopped } from '../runs/caller'
import { judgeTask, schemaWords } from '../runs/judgeTask'
import { runPool } from '../runs/pool'
import { findCall, setRunTotal } from '../runs/repo'
import { judgeTargetTexts, loadJudgeTasks, tasksHoldWording } from '../runs/tasks'
import { settledTargets } from '../verdicts/reads'
import { writeVerdictsMany } from '../verdicts/write'
import { callFailure } from './calls'
import type { Drive } from './drive'
import { waitingKeys } from './repo'
import type { ToSubmit } from './submit'

const WAITING = 'waiting for its batch'
const isStop = (e: unknown) => e instanceof RunStopped

/**
 * The run's candidates: those an earlier pass of this drive loaded while the dataset still has
 * exactly their targets, worded as they were (checking costs a fraction of loading them again),
 * else loaded afresh, so a unit added, removed, given a new version or edited in place while a
 * batch was out is judged as before. A follow-up call (DCR's AMC step, a repair retry) is built
 * in a later pass than the call it follows, so it is built from the wording current then: never
 * from text the person has since changed.
 */
function currentTasks(d: Drive): CandidateTask[] {
  const { db, run } = d
  const kinds = d.method.unitKinds
  if (d.tasks) {
    const texts = judgeTargetTexts(db, run.datasetId, kinds, run.slice)
    if (texts && tasksHoldWording(d.tasks, texts)) return d.tasks
  }
  d.tasks = loadJudgeTasks(db, run.datasetId, kinds, run.slice)
  return d.tasks
}

/**
 * One pass of the method over unjudged candidates, with a `call` that answers from the run's
 * finished calls and the response cache and defers everything else: writes the verdicts of
 * candidates whose calls are all answered and returns the calls still needed.
 */
export async function pass(d: Drive): Promise<{ toSubmit: ToSubmit; blocked: number }> {
  const { db, run, config, signal } = d
  const words = schemaWords(db, run)
  const tasks = currentTasks(d)
  setRunTotal(db, run.id, tasks.length, plannedCalls(run.method, tasks, config.settings, config.capabilities))
  const settled = settledTargets(db, run.id)
  const pending = tasks.filter((t) => t.targets.some((x) => !settled.has(x.targetId)))
  // Read only once a call is deferred: a pass over answered calls (the usual one after an
  // ingest) needs no list of the requests still out, which is a read of every request's call.
  let waiting: Set<string> | null = null
  const toSubmit: ToSubmit = new Map()
  let blocked = 0
  let done = tasks.length - pending.length
  // Verdicts go in a few hundred candidates per transaction: one commit each would cost more
  // than the rest of a large pass. A kill before a flush loses nothing: the calls are stored.
  let writes: { outcomes: Awaited<ReturnType<typeof judgeTask>>; callId: number | null }[] = []
  const flush = () => {
    const chunk = writes
    writes = []
    if (chunk.length > 0) writeVerdictsMany(db, run.id, chunk)
  }
  await runPool(
    pending,
    16,
    signal,
    async (task) => {
      let callId: number | null = null
      let deferred = false
      const ctx = d.context(async (key, build) => {
        if (signal.aborted) throw new RunStopped('stopped')
        const fresh = d.answered.get(key)
        if (fresh) {
          callId = fresh.callId
          return { ok: true, reply: fresh.reply, callId }
        }
        const stored = findCall(db, run.id, key)
        if (stored?.status === 'done' && stored.reply) {
          callId = stored.id
          return { ok: true, reply: stored.reply, callId }
        }
        if (d.failedNow.has(key)) {
          const f = callFailure(db, run.id, key)
          if (f) {
            callId = f.id
            return { ok: false, error: f.error, callId }
          }
        }
        // Built only here: a call answered above needs no request.
        const request = requestOf(build)
        const hash = callHash(config, run.repeatIndex, request)
        const record = { request, wire: d.client.wireBody(request) }
        if (config.cache) {
          const hit = answerFromCache(db, run.id, key, hash, record)
          if (hit) {
            callId = hit.callId
            return { ok: true, reply: hit.reply, callId }
          }
        }
        deferred = true
        waiting ??= waitingKeys(db, run.id)
        if (!waiting.has(key) && !toSubmit.has(key)) toSubmit.set(key, { hash, record })
        return { ok: false, error: WAITING }
      })
      const outcomes = await judgeTask(d.method, task, ctx, words)
      if (deferred) {
        blocked++
        return
      }
      writes.push({ outcomes, callId })
      if (writes.length >= 500) flush()
      done++
    },
    isStop,
    () => undefined,
  ).finally(flush)
  d.answered.clear()
  d.progress(done, tasks.length)
  return { toSubmit, blocked }
}
