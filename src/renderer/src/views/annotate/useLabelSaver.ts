import { useCallback, useEffect, useRef, useState } from 'react'
import type { TargetLabel } from '../../actions/types'
import { api } from '../../api'
import { ActiveClock } from './activeClock'
import { afterPaint } from './afterPaint'
import { type PendingSave, pendingKey, readPending, writePending } from './pendingLabels'
import { SaveQueue } from './saveQueue'
import { isFinalRefusal, pendingMessage } from './saveTrouble'

export type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'error'; message: string }
  /** The workspace refused a label for good; it was taken back on screen. */
  | { kind: 'refused'; message: string }

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

/** What one queued save carries: the label, who gave it, the time spent, the guidelines shown. */
interface Outgoing {
  label: TargetLabel
  annotatorId: number
  seconds: number
  guidelinesVersion: number | undefined
}

function asInput(targetId: number, o: Outgoing): PendingSave {
  return {
    targetId,
    annotatorId: o.annotatorId,
    ...o.label,
    seconds: o.seconds,
    ...(o.guidelinesVersion === undefined ? {} : { guidelinesVersion: o.guidelinesVersion }),
  }
}

function fromInput(p: PendingSave): Outgoing {
  return {
    label: { verdict: p.verdict, evidence: p.evidence ?? [], note: p.note ?? null },
    annotatorId: p.annotatorId,
    seconds: p.seconds ?? 0,
    guidelinesVersion: p.guidelinesVersion,
  }
}

/**
 * Copies the labels not yet acknowledged into the tab's storage, per annotator; `keptUnder` (the
 * keys holding labels now) lets a key be emptied once its labels are all saved.
 */
function keepWaiting(q: SaveQueue<Outgoing>, file: string | null, keptUnder: Set<string>): void {
  if (file === null) return
  const byKey = new Map<string, PendingSave[]>()
  for (const [targetId, o] of q.unacknowledged()) {
    const key = pendingKey(file, o.annotatorId)
    byKey.set(key, [...(byKey.get(key) ?? []), asInput(targetId, o)])
  }
  for (const key of keptUnder) if (!byKey.has(key)) writePending(sessionStorage, key, [])
  for (const [key, saves] of byKey) writePending(sessionStorage, key, saves)
  keptUnder.clear()
  for (const key of byKey.keys()) keptUnder.add(key)
}

/** What the page's leave prompt says while labels wait (Electron's shell asks in its own words). */
const LEAVE_WARNING =
  'Some labels are not saved yet. They are kept in this tab and sent again if you reload it.'

/** Pause before asking again for the workspace file when the first ask got no answer. */
const INFO_RETRY_MS = 3000

/**
 * The workspace file the pending labels are kept under: asked once, and again while the server
 * does not answer (a page reloaded before its server is back).
 */
function useWorkspaceFile(): string | null {
  const [file, setFile] = useState<string | null>(null)
  useEffect(() => {
    let stop = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const ask = () => {
      api('workspace.info', {}).then(
        (info) => {
          if (!stop) setFile(info.file)
        },
        () => {
          if (!stop) timer = setTimeout(ask, INFO_RETRY_MS)
        },
      )
    }
    ask()
    return () => {
      stop = true
      clearTimeout(timer)
    }
  }, [])
  return file
}

/**
 * Saves labels through a SaveQueue: the screen has already moved on when a label is sent (the
 * request leaves once the frame showing the label is painted, so starting it never delays that
 * frame), the labels go one after another (so an undo never overtakes the label it undoes), and a
 * failed send is tried again by itself until it gets through, under the guidelines version it was
 * given under. Until then the indicator says so and the units whose labels are not yet
 * acknowledged are marked unsaved; "Retry" tries at once.
 */
export function useLabelSaver(
  annotatorId: number | null,
  onSaved: (targetId: number) => void,
  /** The guidelines version on screen, read when a label is given: the label is recorded under it. */
  guidelinesVersion: () => number | undefined = () => undefined,
  /**
   * A label the workspace refused for good, with the last label it acknowledged for that unit in
   * this view (undefined: none since the item was opened), so the screen can show what is stored.
   */
  onRefused: (targetId: number, stored: TargetLabel | undefined, reason: string) => void = () => undefined,
  /** Labels kept from before a reload, queued again: the screen shows them until they are saved. */
  onRestored: (labels: Map<number, TargetLabel>) => void = () => undefined,
) {
  const [status] = useState(statusStore)
  const workspaceFile = useWorkspaceFile()
  const fileRef = useRef<string | null>(null)
  fileRef.current = workspaceFile
  const onRestoredRef = useRef(onRestored)
  onRestoredRef.current = onRestored
  /** The storage keys holding labels now, so a key is emptied once its labels are all saved. */
  const [keptUnder] = useState(() => new Set<string>())
  const [failed, setFailed] = useState<Map<number, TargetLabel>>(new Map())
  const onSavedRef = useRef(onSaved)
  onSavedRef.current = onSaved
  const onRefusedRef = useRef(onRefused)
  onRefusedRef.current = onRefused
  const acknowledged = useRef(new Map<number, TargetLabel>())
  const clock = useRef<{ targetId: number | null; active: ActiveClock }>({
    targetId: null,
    active: new ActiveClock(performance.now()),
  })
  useActiveTime(clock.current.active)
  const [queue] = useState(() => {
    const q: SaveQueue<Outgoing> = new SaveQueue<Outgoing>({
      send: async (targetId, o) => {
        await api('annotate.save', asInput(targetId, o))
      },
      // The label is drawn and the focus moved first; the request leaves right after that frame.
      start: afterPaint,
      onAcknowledged: (targetId, o) => {
        acknowledged.current.set(targetId, o.label)
        onSavedRef.current(targetId)
      },
      isRefusal: isFinalRefusal,
      onRefused: (targetId, _label, reason) => {
        // A later label for the same unit is still on its way: that one decides what is shown.
        if (q.unacknowledged().has(targetId)) return
        onRefusedRef.current(targetId, acknowledged.current.get(targetId), reason)
      },
      onChange: () => {
        keepWaiting(q, fileRef.current, keptUnder)
        const error = q.lastError
        const refusal = q.lastRefusal
        status.set((s) =>
          q.size === 0
            ? refusal !== null
              ? s.kind === 'refused' && s.message === refusal
                ? s
                : { kind: 'refused', message: refusal }
              : s.kind === 'idle' && error === null
                ? s
                : { kind: 'saved' }
            : error !== null
              ? { kind: 'error', message: pendingMessage(error) }
              : s.kind === 'saving'
                ? s
                : { kind: 'saving' },
        )
        // Only while sends fail are units marked: a label in flight for a few milliseconds is not news.
        setFailed((m) => {
          if (error === null) return m.size === 0 ? m : new Map()
          return new Map([...q.unacknowledged()].map(([id, o]) => [id, o.label]))
        })
      },
    })
    return q
  })

  // Once the workspace and the person are known, labels kept from before a reload are queued
  // again (a label given since, for the same unit, is newer and wins), and what waits is kept.
  useEffect(() => {
    if (workspaceFile === null || annotatorId === null) return
    const waiting = queue.unacknowledged()
    const restored = new Map<number, TargetLabel>()
    for (const p of readPending(sessionStorage, pendingKey(workspaceFile, annotatorId))) {
      if (p.annotatorId !== annotatorId || waiting.has(p.targetId)) continue
      const o = fromInput(p)
      restored.set(p.targetId, o.label)
      void queue.add(p.targetId, o)
    }
    keepWaiting(queue, workspaceFile, keptUnder)
    if (restored.size > 0) onRestoredRef.current(restored)
  }, [workspaceFile, annotatorId, queue, keptUnder])

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
      return queue.add(targetId, {
        label,
        annotatorId,
        seconds: secondsFor(targetId),
        guidelinesVersion: given,
      })
    },
    [annotatorId, queue, guidelinesVersion],
  )

  // Leaving the page with labels not yet acknowledged asks first (Electron's shell shows its own
  // question), and sends at once what was held back for the next paint.
  useEffect(() => {
    const onLeave = (e: BeforeUnloadEvent) => {
      if (queue.size === 0) return
      queue.sendNow()
      e.preventDefault()
      e.returnValue = LEAVE_WARNING
    }
    window.addEventListener('beforeunload', onLeave)
    return () => window.removeEventListener('beforeunload', onLeave)
  }, [queue])

  const retry = useCallback(() => queue.retryNow(), [queue])

  /** Resolves once every save asked for so far is acknowledged. */
  const flush = useCallback(() => queue.flush(), [queue])

  /** Labels given but not yet acknowledged (the latest per unit), to lay over a freshly read item. */
  const pending = useCallback(
    () => new Map([...queue.unacknowledged()].map(([id, o]) => [id, o.label])),
    [queue],
  )

  return { status, failed, save, retry, flush, focusChanged, pending }
}
