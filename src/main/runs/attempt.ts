import type { SendHooks } from '../providers/client'
import type { Clock, Slot, TokenBucket } from './limits'

/**
 * One attempt's signal: aborted when the run stops or after `ms` from `arm()`. Made by hand rather
 * than with AbortSignal.any and AbortSignal.timeout: each signal composed from the run's long-lived
 * one joins its list of dependants, and Node sweeps that whole list every time one of them is
 * garbage-collected, which over a run of thousands of calls cost more CPU than the calls.
 */
export function attemptSignal(
  run: AbortSignal,
  ms: number,
): { signal: AbortSignal; arm(): void; timedOut(): boolean; end(): void } {
  const controller = new AbortController()
  let timedOut = false
  let timer: NodeJS.Timeout | null = null
  const onStop = () => controller.abort(run.reason)
  if (run.aborted) onStop()
  else run.addEventListener('abort', onStop, { once: true })
  return {
    signal: controller.signal,
    arm() {
      timer = setTimeout(() => {
        timedOut = true
        controller.abort(new DOMException(`no reply within ${ms} ms`, 'TimeoutError'))
      }, ms)
      // Like AbortSignal.timeout, the timer alone does not keep the process alive.
      timer.unref()
    },
    timedOut: () => timedOut,
    end() {
      if (timer !== null) clearTimeout(timer)
      run.removeEventListener('abort', onStop)
    },
  }
}

/** Slots of the successful replies that have arrived in this turn of the event loop. */
let arrivedThisTurn: Slot[] = []

function handOnArrived(): void {
  const slots = arrivedThisTurn
  arrivedThisTurn = []
  for (const slot of slots) slot.release()
}

/**
 * Hands `slot` on together with those of every other reply that arrives in this turn, once the
 * turn's arrivals are in and before any of them is read (the client reads a reply a turn later
 * when told its slot was handed on, and its read is queued after this).
 */
function handOnWithTurn(slot: Slot): boolean {
  if (arrivedThisTurn.length === 0) setImmediate(handOnArrived)
  arrivedThisTurn.push(slot)
  return true
}

export interface AttemptGates {
  slot: Slot
  rpm: TokenBucket | null
  tpm: TokenBucket | null
  /** The request's token estimate, for the tokens-per-minute limit. */
  tokens: number
  signal: AbortSignal
  clock: Clock
}

/**
 * How one attempt goes out and comes back. Its request waits, already built, for the call's slot
 * and then the rate limits (which count requests as they leave); the clock of its timeout and of
 * its latency starts when it leaves.
 *
 * A successful reply hands its slot on as soon as it has arrived, before the SDK reads it and
 * before its record commits, so the next request never waits for either. Replies that arrive in
 * one turn of the event loop hand theirs on together, so the requests they let go leave in one
 * turn as well: handed on one by one as each was read, the requests went out, and the replies
 * came back, spread over more turns of both processes, a third more CPU per call at concurrency
 * 128; held until the turn's shared commit, a reply that had arrived with others kept its
 * request waiting for every one of them to be read and committed first.
 */
export function attemptHooks(gates: AttemptGates, arm: () => void): { hooks: SendHooks; sentAt(): number } {
  let sentAt = gates.clock.now()
  return {
    sentAt: () => sentAt,
    hooks: {
      async beforeSend() {
        await gates.slot.take()
        await gates.rpm?.take(1, gates.signal)
        await gates.tpm?.take(gates.tokens, gates.signal)
        sentAt = gates.clock.now()
        arm()
      },
      replied: (status) => status < 300 && handOnWithTurn(gates.slot),
    },
  }
}
