// runs/ owns judge and generation runs: creating them from a config, driving them (this engine:
// rate limits, retries, cache, resume, one driver per run by lease) and reading them back.
import { runBatchJudge, settleBeforeSync } from '../batches/driver'
import { cancelOpenBatches, type LeftBatch } from '../batches/leave'
import { hasOpenBatches } from '../batches/repo'
import { plannedCalls } from '../judges/plannedCalls'
import type { JudgeContext, TemplateSet } from '../judges/types'
import { createProvider, type ProviderClient, type ProviderOptions } from '../providers'
import { type BatchApi, type BatchLimits, createBatchApi } from '../providers/batch'
import { type KeyStore, keyStore, missingKey } from '../providers/keys'
import { callCost } from '../providers/models'
import type { Db } from '../store/connection'
import { getDataset } from '../store/repos/datasets'
import { allFailedReason, anyAnswer, runFailures } from '../verdicts/failures'
import { settledTargets } from '../verdicts/reads'
import { insertVerdicts } from '../verdicts/write'
import { RunCaller, RunFatal, RunStopped } from './caller'
import type { RunConfig } from './config'
import { runPricesNow } from './cost'
import { missingUnits } from './create'
import { runExtraction } from './extract'
import { failureAdvice } from './failureAdvice'
import { runImprovement } from './improve'
import { judgeTask, schemaWords } from './judgeTask'
import { claimLease, clearDeadLease, keepLease, newHolder, releaseLease } from './lease'
import type { RunDriver } from './leaseRules'
import { type Clock, realClock } from './limits'
import { runPool } from './pool'
import type { MethodRegistry } from './registry'
import {
  getRun,
  type RunRecord,
  type RunSummary,
  runCost,
  runSummary,
  setRunStatus,
  setRunTotal,
} from './repo'
import type { RunSession } from './session'
import { loadJudgeTasks } from './tasks'
import { TickWrites } from './tickWrites'

export interface RunProgress {
  runId: number
  status: string
  done: number
  total: number
  etaSeconds: number | null
  cost: number
}

export interface EngineOptions {
  db: Db
  registry: MethodRegistry
  keys?: KeyStore
  /** Replaces the SDK clients (tests of the engine alone). */
  clientFactory?: (opts: ProviderOptions) => ProviderClient
  onProgress?: (p: RunProgress) => void
  clock?: Clock
  /** Who this engine is, as a second driver of the same run is told (default `other`). */
  driver?: RunDriver
  /** Told when a run was taken over from a driver that had vanished or fallen silent. */
  onNotice?: (runId: number, message: string) => void
  /** How often a driven run's lease is refreshed (tests shorten it; see leaseRules.ts). */
  leaseHeartbeatMs?: number
  /** Batch mode: smaller limits (tests split small), the polling pace, another batch API. */
  batch?: {
    limits?: BatchLimits
    poll?: { firstMs: number; maxMs: number }
    apiFactory?: (opts: ProviderOptions, limits?: BatchLimits) => BatchApi
  }
}

interface Active {
  controller: AbortController
  stopAs: 'paused' | 'cancelled' | null
  /** Another driver took the run over: stop without touching its status, which is theirs now. */
  lost: boolean
  done: Promise<RunSummary>
  /** Batch mode: the polling pace asked for by whoever started the run (`--poll-ms`). */
  batchPoll?: { firstMs: number; maxMs: number }
}

function templateSet(config: RunConfig): TemplateSet {
  const out: TemplateSet = {}
  for (const [name, t] of Object.entries(config.templates))
    out[name] = { ...(t.system !== undefined ? { system: t.system } : {}), user: t.user }
  return out
}

/**
 * Runs judge, extraction and improvement jobs in this process. A run's state lives in the
 * workspace (run_calls, verdicts), so `start` on a paused, failed or crashed run picks up
 * where it stopped without repeating a finished call. A run is driven by one process at a
 * time: `start` claims its lease in the workspace (see lease.ts) and throws RunLeaseHeld when
 * another live driver has it.
 */
export class RunEngine {
  private readonly active = new Map<number, Active>()

  constructor(private readonly o: EngineOptions) {}

  isActive(runId: number): boolean {
    return this.active.has(runId)
  }

  /**
   * Starts or resumes a run and resolves when it stops (done, paused, cancelled or failed).
   * Throws at once, before any call, when the run is cancelled or driven elsewhere.
   */
  start(runId: number, opts: { batchPoll?: { firstMs: number; maxMs: number } } = {}): Promise<RunSummary> {
    const existing = this.active.get(runId)
    if (existing) return existing.done
    const { db } = this.o
    const run = getRun(db, runId)
    if (run.status === 'done') return Promise.resolve(runSummary(db, runId))
    if (run.status === 'cancelled') throw new Error(`Run ${runId} was cancelled; start a new run instead`)
    const me = newHolder(this.o.driver ?? 'other')
    const claim = claimLease(db, runId, me)
    const entry: Active = {
      controller: new AbortController(),
      stopAs: null,
      lost: false,
      done: Promise.resolve(null as never),
      ...(opts.batchPoll ? { batchPoll: opts.batchPoll } : {}),
    }
    this.active.set(runId, entry)
    const onLost = () => {
      entry.lost = true
      entry.controller.abort(new RunStopped('taken over'))
    }
    const stopBeat = keepLease(db, runId, me.owner, onLost, this.o.leaseHeartbeatMs)
    entry.done = this.execute(run, entry).finally(() => {
      stopBeat()
      this.active.delete(runId)
      try {
        if (db.open) releaseLease(db, runId, me.owner, entry.stopAs)
      } catch {
        // A lease that cannot be released goes stale (or its process is gone) and is taken over.
      }
    })
    // Told once the run is under way: a listener that fails must not strand the claimed lease.
    if (claim.takeover) {
      try {
        this.o.onNotice?.(runId, claim.takeover)
      } catch {
        // The takeover is in the lease log and the runs list either way.
      }
    }
    return entry.done
  }

  private batchApi(opts: ProviderOptions): BatchApi {
    const b = this.o.batch
    return (b?.apiFactory ?? createBatchApi)(opts, b?.limits)
  }

  /**
   * Cancels the provider batches a run still has open, before it goes on call by call (see
   * batches/leave.ts). Throws, with nothing of the run changed, when the provider refuses.
   */
  async cancelBatches(runId: number): Promise<LeftBatch[]> {
    const { db } = this.o
    if (!hasOpenBatches(db, runId)) return []
    const config = getRun(db, runId).config
    const keys = this.o.keys ?? keyStore()
    const noKey = missingKey(config.provider, keys)
    if (noKey) throw new Error(noKey)
    const api = this.batchApi({
      provider: config.provider,
      model: config.model,
      baseUrl: config.baseUrl,
      apiKey: keys.get(config.provider),
      capabilities: config.capabilities,
      timeoutMs: config.timeoutMs,
    })
    return await cancelOpenBatches(db, runId, api, AbortSignal.timeout(Math.max(config.timeoutMs, 60_000)))
  }

  pause(runId: number): void {
    this.stop(runId, 'paused')
  }

  cancel(runId: number): void {
    this.stop(runId, 'cancelled')
  }

  /** Pauses every run this engine drives and resolves once each has stopped and released its lease. */
  async pauseAll(): Promise<void> {
    const running = [...this.active.entries()]
    for (const [runId] of running) this.stop(runId, 'paused')
    await Promise.allSettled(running.map(([, a]) => a.done))
  }

  private stop(runId: number, as: 'paused' | 'cancelled'): void {
    const a = this.active.get(runId)
    if (a) {
      a.stopAs = as
      a.controller.abort(new RunStopped(as))
      return
    }
    const run = getRun(this.o.db, runId)
    if (run.status === 'done' || run.status === 'cancelled') return
    // A run driven by another live process is theirs to stop; marking it here would be undone.
    clearDeadLease(this.o.db, runId, newHolder(this.o.driver ?? 'other'))
    setRunStatus(this.o.db, runId, as)
  }

  private async execute(run: RunRecord, entry: Active): Promise<RunSummary> {
    const { db } = this.o
    const config = run.config
    setRunStatus(db, run.id, 'running')
    const started = performance.now()
    let doneAtStart: number | null = null
    let cost = runCost(db, run.id)
    const prices = runPricesNow(db, config)
    let lastEmit = 0
    const emit = (status: string, done: number, total: number, force = false) => {
      const t = performance.now()
      if (!force && t - lastEmit < 100) return
      lastEmit = t
      doneAtStart ??= done
      const finished = done - doneAtStart
      const eta = finished > 0 ? (((t - started) / finished) * (total - done)) / 1000 : null
      this.o.onProgress?.({ runId: run.id, status, done, total, etaSeconds: eta, cost })
    }
    let progressState = { done: 0, total: 0 }
    const writes = new TickWrites(db)
    try {
      const keys = this.o.keys ?? keyStore()
      const noKey = missingKey(config.provider, keys)
      if (noKey) throw new RunFatal(noKey)
      const apiKey = config.provider === 'lexical' ? null : keys.get(config.provider)
      const providerOptions: ProviderOptions = {
        provider: config.provider,
        model: config.model,
        baseUrl: config.baseUrl,
        apiKey,
        capabilities: config.capabilities,
        timeoutMs: config.timeoutMs,
      }
      const client = (this.o.clientFactory ?? createProvider)(providerOptions)
      const signal = entry.controller.signal
      const caller = new RunCaller({
        db,
        runId: run.id,
        repeatIndex: run.repeatIndex,
        config,
        client,
        apiKey,
        signal,
        writes,
        ...(this.o.clock ? { clock: this.o.clock } : {}),
        // Counted as every screen counts it (runs/pricing.ts): a run created with no price is
        // priced with its model's prices entered since, so its live cost must not read 0.
        onCall: (c) => {
          cost += c.usage ? callCost(prices, c.usage) : c.cost
        },
      })
      const templates = templateSet(config)
      // Every method answers in the dataset's schema (see judges/schemaFit.ts).
      const labelSchema = getDataset(db, run.datasetId).labelSchema
      const session: RunSession = {
        db,
        run,
        registry: this.o.registry,
        caller,
        writes,
        signal,
        context: (onCallId) => ({
          settings: config.settings,
          templates,
          capabilities: config.capabilities,
          labelSchema,
          call: (key, req) => caller.call(key, req, onCallId),
        }),
        progress: (done, total) => {
          progressState = { done, total }
          emit('running', done, total)
        },
        stop: () => entry.controller.abort(new RunStopped('failed')),
      }
      if (run.kind === 'judge') {
        // Refused at creation; checked again here, as units may have gone since (a run that
        // judges nothing must not end "done 0/0").
        const method = this.o.registry.judges[run.method]
        const missing =
          method &&
          missingUnits(db, run.datasetId, run.method, method.unitKinds, run.slice, 'nothing was judged')
        if (missing) throw new RunFatal(missing)
      }
      const batchOptions = () => {
        const method = this.o.registry.judges[run.method]
        if (!method) throw new RunFatal(`Unknown judge method "${run.method}"`)
        const b = this.o.batch
        return {
          db,
          run,
          method,
          client,
          api: this.batchApi(providerOptions),
          apiKey,
          context: (call: JudgeContext['call']) => ({
            settings: config.settings,
            templates,
            capabilities: config.capabilities,
            labelSchema,
            call,
          }),
          signal,
          clock: this.o.clock ?? realClock,
          ...((entry.batchPoll ?? b?.poll) ? { poll: entry.batchPoll ?? b?.poll } : {}),
          progress: session.progress,
        }
      }
      if (run.kind === 'judge' && config.mode === 'batch') {
        await runBatchJudge(batchOptions())
      } else if (run.kind === 'judge' && hasOpenBatches(db, run.id)) {
        // Gone call by call from batch mode: what the (cancelled) batches answered is read first.
        await settleBeforeSync(batchOptions())
        await this.judge(session)
      } else if (run.kind === 'judge') await this.judge(session)
      else if (run.kind === 'extract') await runExtraction(session)
      else if (run.kind === 'improve') await runImprovement(session)
      else throw new RunFatal(`Runs of kind ${run.kind} cannot be executed`)
      await writes.settled()
      if (run.kind === 'judge' && !entry.stopAs) {
        // A run whose every call failed produced no evidence: it is a failed run, with its reason.
        // Its failures are classed only then; the summary below counts the statuses anyway.
        const failures = anyAnswer(db, run.id) ? null : runFailures(db, run.id)
        const reason = failures && allFailedReason(failures)
        if (reason) {
          // What to do next, so "resume" is not read as the cure for a server that is down.
          const advice =
            failures.first &&
            failureAdvice({
              failure: failures.first.name,
              provider: config.provider,
              baseUrl: config.baseUrl,
              timeoutMs: config.timeoutMs,
            })
          throw new RunFatal(advice ? `${reason.replace(/\.$/, '')}. ${advice}` : reason)
        }
      }
      // After a takeover the run's status belongs to the new driver, whatever stopped ours.
      if (!entry.lost) setRunStatus(db, run.id, entry.stopAs ?? 'done')
    } catch (error) {
      await writes.settled()
      const message = error instanceof Error ? error.message : String(error)
      if (entry.lost) return runSummary(db, run.id)
      if (error instanceof RunStopped && entry.stopAs) setRunStatus(db, run.id, entry.stopAs)
      else setRunStatus(db, run.id, 'failed', message)
    }
    const summary = runSummary(db, run.id)
    emit(summary.status, progressState.done, progressState.total, true)
    return summary
  }

  private async judge(s: RunSession): Promise<void> {
    const method = s.registry.judges[s.run.method]
    if (!method) throw new RunFatal(`Unknown judge method "${s.run.method}"`)
    const words = schemaWords(s.db, s.run)
    const tasks = loadJudgeTasks(s.db, s.run.datasetId, method.unitKinds, s.run.slice)
    const settled = settledTargets(s.db, s.run.id)
    const pending = tasks.filter((t) => t.targets.some((x) => !settled.has(x.targetId)))
    const c = s.run.config
    setRunTotal(s.db, s.run.id, tasks.length, plannedCalls(s.run.method, tasks, c.settings, c.capabilities))
    let done = tasks.length - pending.length
    s.progress(done, tasks.length)
    // Calls are gated by the caller; extra tasks in flight keep the gate full when a task makes
    // several calls in sequence or is answered from the cache.
    const inFlight = s.run.config.concurrency * 2 + 2
    await runPool(
      pending,
      inFlight,
      s.signal,
      async (task) => {
        let callId: number | null = null
        const ctx = s.context((id) => {
          callId = id
        })
        const outcomes = await judgeTask(method, task, ctx, words)
        // A stop can surface inside a method as a failed call; those outcomes are not real.
        if (s.signal.aborted && outcomes.some((o) => o.status === 'error')) return
        await s.writes.write(() => insertVerdicts(s.db, s.run.id, outcomes, callId))
        done++
        s.progress(done, tasks.length)
      },
      (e) => e instanceof RunStopped,
      () => s.stop(),
      s.run.config.concurrency,
    )
  }
}
