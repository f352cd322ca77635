import { useCallback, useEffect, useRef, useState } from 'react'
import type { TargetLabel } from '../../actions/types'
import { api } from '../../api'
import { ActiveClock } from './activeClock'

export type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'error'; message: string }

/**
 * The save state lives outside React state: the indicator subscribes to it, so "Saving…" and
 * "Saved" re-render that one element instead of the whole annotate view.
 */
export interface SaveStatus {
  get(): SaveState
  subscribe(listener: () => void): () => void
}

function statusStore(): SaveStatus & { set(next: (s: SaveState) => SaveState): void } {
  let state: SaveState = { kind: 'idle' }
  const listeners = new Set<() => void>()
  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    set(next) {
      const s = next(state)
      if (s === state) return
      state = s
      for (const l of listeners) l()
    },
  }
}

/** Seconds on one unit before a break is assumed; time beyond it is not counted as work. */
const IDLE_CAP_SECONDS = 300

/** Feeds the clock the person's input and the tab's visibility while the view is open. */
function useActiveTime(clock: ActiveClock) {
  useEffect(() => {
    const poke = () => clock.activity(performance.now())
    const seen = () => clock.visibility(document.visibilityState === 'visible', performance.now())
    const kinds = ['keydown', 'pointerdown', 'pointermove', 'wheel'] as const
    for (const k of kinds) window.addEventListener(k, poke, { passive: true, capture: true })
    document.addEventListener('visibilitychange', seen)
    return () => {
      for (const k of kinds) window.removeEventListener(k, poke, { capture: true })
      document.removeEventListener('visibilitychange', seen)
    }
  }, [clock])
}

/**
 * Saves labels one after another (so an undo never overtakes the label it undoes) and keeps
 * the latest label of a failed save so "Retry" sends exactly what the person sees.
 */
export function useLabelSaver(
  annotatorId: number | null,
  onSaved: (targetId: number) => void,
  /** The guidelines version on screen, read when a label is given: the label is recorded under it. */
  guidelinesVersion: () => number | undefined = () => undefined,
) {
  const [status] = useState(statusStore)
  const [failed, setFailed] = useState<Map<number, TargetLabel>>(new Map())
  const failedGiven = useRef(new Map<number, number | undefined>())
  const chain = useRef<Promise<unknown>>(Promise.resolve())
  const pending = useRef(0)
  const clock = useRef<{ targetId: number | null; active: ActiveClock }>({
    targetId: null,
    active: new ActiveClock(performance.now()),
  })
  useActiveTime(clock.current.active)

  /** Starts the time-on-task clock for the unit now in focus. */
  const focusChanged = useCallback((targetId: number | null) => {
    if (clock.current.targetId === targetId) return
    clock.current.targetId = targetId
    clock.current.active.reset(performance.now())
  }, [])

  const secondsFor = (targetId: number): number => {
    if (clock.current.targetId !== targetId) return 0
    return Math.min(clock.current.active.take(performance.now()), IDLE_CAP_SECONDS)
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: secondsFor reads refs only
  const save = useCallback(
    (targetId: number, label: TargetLabel, given = guidelinesVersion()) => {
      if (annotatorId === null) return Promise.resolve()
      const seconds = secondsFor(targetId)
      // With nothing in flight the request leaves at once, before React renders the label and
      // moves the focus, so the round trip overlaps that work; otherwise it queues behind the rest.
      const idle = pending.current === 0
      pending.current++
      status.set(() => ({ kind: 'saving' }))
      const send = async () => {
        try {
          await api('annotate.save', {
            targetId,
            annotatorId,
            ...label,
            seconds,
            ...(given === undefined ? {} : { guidelinesVersion: given }),
          })
          setFailed((m) => {
            if (!m.has(targetId)) return m
            const next = new Map(m)
            next.delete(targetId)
            return next
          })
          onSaved(targetId)
          if (--pending.current === 0) status.set((s) => (s.kind === 'error' ? s : { kind: 'saved' }))
        } catch (e) {
          pending.current--
          // A retry sends the label under the guidelines it was given under, not a newer version.
          failedGiven.current.set(targetId, given)
          setFailed((m) => new Map(m).set(targetId, label))
          status.set(() => ({ kind: 'error', message: e instanceof Error ? e.message : String(e) }))
        }
      }
      const run = idle ? send() : chain.current.then(send)
      chain.current = run
      return run
    },
    [annotatorId, onSaved, status, guidelinesVersion],
  )

  const retry = useCallback(() => {
    status.set(() => ({ kind: 'saving' }))
    for (const [targetId, label] of failed) void save(targetId, label, failedGiven.current.get(targetId))
  }, [failed, save, status])

  /** Resolves once every save asked for so far has finished. */
  const flush = useCallback(() => chain.current, [])

  return { status, failed, save, retry, flush, focusChanged }
}
