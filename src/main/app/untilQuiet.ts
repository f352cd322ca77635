import { performance } from 'node:perf_hooks'

/**
 * Background work that shares the process (a large workspace's integrity check) waits for the
 * event loop to go quiet: started as a workspace opens, the check took the first views a person
 * opens about 15% longer (the Agreement view of a million targets, 0.84 → 0.72 s) though its
 * thread runs at the lowest priority, because its reads compete with theirs for the memory of
 * one process. Quiet means all but idle (a person labelling a unit every fifth of a second kept
 * this machine's loop 1–4% busy, and a check started then ran through their key presses): a
 * person reading a screen for a few seconds. A process that is never that idle (a long judge run,
 * a labelling session) still gets its work started after `maxMs`.
 */
export interface QuietOptions {
  /** How long the loop must stay under `busy` before the work starts. */
  quietMs?: number
  /** Start anyway after this long. */
  maxMs?: number
  /** Share of the time the loop may be busy and still count as quiet. */
  busy?: number
  /** How often the loop's use is sampled. */
  everyMs?: number
  /** The loop's use since the last sample, 0 … 1 (Node's event loop utilization by default). */
  sample?: () => number
  /** Stops waiting (the promise then resolves at once): the work is no longer wanted. */
  signal?: AbortSignal
}

/**
 * Resolves once the event loop has been quiet for `quietMs` (or `maxMs` have passed, or `signal`
 * aborts). While it waits it keeps the process alive, as the work it stands for would: a caller
 * awaiting that work must get it.
 */
export function untilQuiet(opts: QuietOptions = {}): Promise<void> {
  const { quietMs = 2000, maxMs = 120_000, busy = 0.01, everyMs = 250, signal } = opts
  const sample = opts.sample ?? loopUse()
  return new Promise((resolve) => {
    let quietFor = 0
    let waited = 0
    const done = () => {
      clearInterval(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setInterval(() => {
      waited += everyMs
      quietFor = sample() <= busy ? quietFor + everyMs : 0
      if (quietFor >= quietMs || waited >= maxMs) done()
    }, everyMs)
    if (signal?.aborted) done()
    else signal?.addEventListener('abort', done)
  })
}

/** The event loop's utilization since the previous call. */
function loopUse(): () => number {
  let last = performance.eventLoopUtilization()
  return () => {
    const now = performance.eventLoopUtilization()
    const use = performance.eventLoopUtilization(now, last).utilization
    last = now
    return use
  }
}
