import type { TargetLabel } from '../../actions/types'
import { api, onCallSucceeded } from '../../api'
import { afterPaint } from './afterPaint'
import { type PendingSave, pendingKey, readPending, writePending } from './pendingLabels'
import { newSaveId } from './saveId'
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
 * A value outside React state that a component subscribes to: "Saving…" and "Saved" re-render
 * the indicator alone instead of the whole annotate view.
 */
export interface Watched<T> {
  get(): T
  subscribe(listener: () => void): () => void
}
export type SaveStatus = Watched<SaveState>

function watched<T>(initial: T): Watched<T> & { set(next: (v: T) => T): void } {
  let value = initial
  const listeners = new Set<() => void>()
  return {
    get: () => value,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    set(next) {
      const v = next(value)
      if (v === value) return
      value = v
      for (const l of listeners) l()
    },
  }
}

/**
 * What one queued save carries: the label, who gave it, the time spent, the guidelines shown, and
 * the id every send of it carries (so a resend after a lost answer is not stored twice).
 */
export interface Outgoing {
  label: TargetLabel
  annotatorId: number
  seconds: number
  guidelinesVersion: number | undefined
  saveId: string
}

export function asInput(targetId: number, o: Outgoing): PendingSave {
  return {
    targetId,
    annotatorId: o.annotatorId,
    ...o.label,
    seconds: o.seconds,
    ...(o.guidelinesVersion === undefined ? {} : { guidelinesVersion: o.guidelinesVersion }),
    saveId: o.saveId,
  }
}

function fromInput(p: PendingSave): Outgoing {
  return {
    label: { verdict: p.verdict, evidence: p.evidence ?? [], note: p.note ?? null },
    annotatorId: p.annotatorId,
    seconds: p.seconds ?? 0,
    guidelinesVersion: p.guidelinesVersion,
    // Kept from an older page that sent none: a new id, as that page's sends had none to repeat.
    saveId: p.saveId ?? newSaveId(),
  }
}

/** What the page's leave prompt says (Electron's shell asks in its own words). */
const LEAVE_WARNING =
  'Some labels are not saved yet. They are kept in this tab and sent again if you reload it.'

/** What the labelling screen open now wants to hear; nothing while no such screen is open. */
export interface SaverListener {
  onAcknowledged(targetId: number, label: TargetLabel): void
  onRefused(targetId: number, label: TargetLabel, reason: string): void
  onRestored(labels: Map<number, TargetLabel>): void
}

/**
 * The page's one queue of labels on their way to the workspace. It lives as long as the page,
 * not the labelling screen: labels kept from before a reload are sent from whatever view the
 * page opens on (the URL a restarted server prints opens the start page), and a label given just
 * before leaving Annotate still goes. Each change is copied to the tab's sessionStorage.
 */
export interface PageSaver {
  queue: SaveQueue<Outgoing>
  status: SaveStatus
  /** The units whose labels are not yet saved, while sends fail (a send in flight is not news). */
  failed: Watched<Map<number, TargetLabel>>
  listener: SaverListener | null
  /** Queues the labels kept for this workspace and person, once per page. */
  restore(workspaceFile: string, annotatorId: number): void
}

function createPageSaver(): PageSaver {
  const status = watched<SaveState>({ kind: 'idle' })
  const failed = watched(new Map<number, TargetLabel>())
  let file: string | null = null
  /** The storage keys holding labels now, so a key is emptied once its labels are all saved. */
  const keptUnder = new Set<string>()
  const restored = new Set<string>()

  const keep = (): void => {
    if (file === null) return
    const byKey = new Map<string, PendingSave[]>()
    for (const [targetId, o] of queue.unacknowledged()) {
      const key = pendingKey(file, o.annotatorId)
      byKey.set(key, [...(byKey.get(key) ?? []), asInput(targetId, o)])
    }
    for (const key of keptUnder) if (!byKey.has(key)) writePending(sessionStorage, key, [])
    for (const [key, saves] of byKey) writePending(sessionStorage, key, saves)
    keptUnder.clear()
    for (const key of byKey.keys()) keptUnder.add(key)
  }

  const queue: SaveQueue<Outgoing> = new SaveQueue<Outgoing>({
    send: async (targetId, o) => {
      await api('annotate.save', asInput(targetId, o))
    },
    // The label is drawn and the focus moved first; the request leaves right after that frame.
    start: afterPaint,
    onAcknowledged: (targetId, o) => saver.listener?.onAcknowledged(targetId, o.label),
    isRefusal: isFinalRefusal,
    onRefused: (targetId, label, reason) => {
      // A later label for the same unit is still on its way: that one decides what is shown.
      if (queue.unacknowledged().has(targetId)) return
      saver.listener?.onRefused(targetId, label.label, reason)
    },
    onChange: () => {
      keep()
      const error = queue.lastError
      const refusal = queue.lastRefusal
      status.set((s) =>
        queue.size === 0
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
      failed.set((m) => {
        if (error === null) return m.size === 0 ? m : new Map()
        return new Map([...queue.unacknowledged()].map(([id, o]) => [id, o.label]))
      })
    },
  })
  const saver: PageSaver = {
    queue,
    status,
    failed,
    listener: null,
    restore(workspaceFile, annotatorId) {
      file = workspaceFile
      const key = pendingKey(workspaceFile, annotatorId)
      if (restored.has(key)) return
      restored.add(key)
      // A label given since the page opened, for the same unit, is newer and wins.
      const waiting = queue.unacknowledged()
      const back = new Map<number, TargetLabel>()
      for (const p of readPending(sessionStorage, key)) {
        if (p.annotatorId !== annotatorId || waiting.has(p.targetId)) continue
        const o = fromInput(p)
        back.set(p.targetId, o.label)
        void queue.add(p.targetId, o)
      }
      keep()
      if (back.size > 0) saver.listener?.onRestored(back)
    },
  }

  // Another call got through: the server is back, so a label waiting out its pause goes now.
  onCallSucceeded(() => queue.serverAnswered())

  // Leaving the page with labels not yet acknowledged asks first, and sends at once what was
  // held back for the next paint.
  window.addEventListener('beforeunload', (e) => {
    if (queue.size === 0) return
    queue.sendNow()
    e.preventDefault()
    e.returnValue = LEAVE_WARNING
  })
  return saver
}

let page: PageSaver | null = null

/** The page's saver, made on first use. */
export function pageSaver(): PageSaver {
  page ??= createPageSaver()
  return page
}
