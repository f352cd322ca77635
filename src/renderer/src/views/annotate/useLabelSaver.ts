import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { TargetLabel } from '../../actions/types'
import { workspaceInfo } from '../../workspaceInfo'
import { ActiveClock } from './activeClock'
import { pageSaver } from './pageSaver'
import { newSaveId } from './saveId'

export type { SaveState, SaveStatus } from './pageSaver'

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
      workspaceInfo().then(
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
 * Queues again the labels this tab kept from before a reload, once the workspace and the person
 * are known. The app calls it on every view, so the URL a restarted server prints (which opens
 * the start page) sends them too; the labelling screen calls it as well.
 */
export function useRestoreKept(annotatorId: number | null): void {
  const workspaceFile = useWorkspaceFile()
  useEffect(() => {
    if (workspaceFile !== null && annotatorId !== null) pageSaver().restore(workspaceFile, annotatorId)
  }, [workspaceFile, annotatorId])
}

/**
 * Saves labels through the page's SaveQueue: the screen has already moved on when a label is sent (the
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
  const saver = pageSaver()
  const { queue, status } = saver
  const failed = useSyncExternalStore(saver.failed.subscribe, saver.failed.get)
  useRestoreKept(annotatorId)
  const listener = useRef({ onSaved, onRefused, onRestored })
  listener.current = { onSaved, onRefused, onRestored }
  const acknowledged = useRef(new Map<number, TargetLabel>())
  const clock = useRef<{ targetId: number | null; active: ActiveClock }>({
    targetId: null,
    active: new ActiveClock(performance.now()),
  })
  useActiveTime(clock.current.active)

  // This screen hears about acknowledgements and refusals while it is open.
  useEffect(() => {
    saver.listener = {
      onAcknowledged: (targetId, label) => {
        acknowledged.current.set(targetId, label)
        listener.current.onSaved(targetId)
      },
      onRefused: (targetId, _label, reason) =>
        listener.current.onRefused(targetId, acknowledged.current.get(targetId), reason),
      onRestored: (labels) => listener.current.onRestored(labels),
    }
    return () => {
      saver.listener = null
    }
  }, [saver])

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
        saveId: newSaveId(),
      })
    },
    [annotatorId, queue, guidelinesVersion],
  )

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
