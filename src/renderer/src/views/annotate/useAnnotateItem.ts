import { type MutableRefObject, useCallback, useEffect, useRef, useState } from 'react'
import type { AnnotateView as View } from '../../../../shared/contract/annotate'
import * as A from '../../actions/annotate'
import { keepUnchanged } from '../../actions/keepUnchanged'
import type { AnnotateState, TargetLabel } from '../../actions/types'
import { api } from '../../api'

/** Quiet time after a save before blind mode's refresh fetches what the label revealed. */
const REVEAL_AFTER_MS = 250

function labelsOf(view: View): Record<number, TargetLabel> {
  const out: Record<number, TargetLabel> = {}
  for (const t of view.targets)
    if (t.mine) out[t.targetId] = { verdict: t.mine.verdict, evidence: t.mine.evidence, note: t.mine.note }
  return out
}

function withPending(
  labels: Record<number, TargetLabel>,
  view: View,
  pending: Map<number, TargetLabel> | undefined,
): Record<number, TargetLabel> {
  if (!pending || pending.size === 0) return labels
  const out = { ...labels }
  for (const t of view.targets) {
    const p = pending.get(t.targetId)
    if (p) out[t.targetId] = p
  }
  return out
}

interface ItemScreen {
  datasetId: number
  annotatorId: number | null
  blind: boolean
  /**
   * My labels not yet saved: an item read meanwhile still holds the old ones, so these are laid
   * over it (a label kept from before a reload, or one waiting for a busy workspace).
   */
  pending?: () => Map<number, TargetLabel>
  /** The labelling state, read and written at once by the keys (stateRef) and shown (setState). */
  stateRef: MutableRefObject<AnnotateState>
  setState: (state: AnnotateState) => void
  setCandidateId: (id: number | null) => void
}

/**
 * The item on the labelling screen: opening one (the focus, its variant, my labels), and the
 * quiet refreshes that keep it true without moving the focus: when blind mode is switched, and
 * after a save that reveals or hides the judges.
 */
export function useAnnotateItem({
  datasetId,
  annotatorId,
  blind,
  stateRef,
  setState,
  setCandidateId,
  pending,
}: ItemScreen) {
  const pendingRef = useRef(pending)
  pendingRef.current = pending
  const [view, setView] = useState<View | null>(null)
  const [error, setError] = useState<string | null>(null)
  // Read through a ref: switching blind mode refreshes the item quietly instead of reopening it.
  const blindRef = useRef(blind)
  blindRef.current = blind

  // Answers can come back out of order (an item opened while blind mode's refresh of the last one
  // is on its way): only the latest opening, and a refresh of the item it shows, reach the screen.
  const opened = useRef({ count: 0, itemId: null as number | null })
  const load = useCallback(
    async (which: { targetId?: number; itemId?: number }, quiet = false) => {
      if (annotatorId === null) return
      const ticket = quiet ? opened.current.count : ++opened.current.count
      try {
        const v = await api('annotate.open', { datasetId, annotatorId, blind: blindRef.current, ...which })
        if (ticket !== opened.current.count) return
        if (quiet && v.item.id !== opened.current.itemId) return
        opened.current.itemId = v.item.id
        setView((before) => (quiet && before ? keepUnchanged(before, v) : v))
        setError(null)
        const settled = v.targets.filter((t) => t.settled).map((t) => t.targetId)
        if (quiet) {
          // A quiet refresh also learns which units others have since taken to k.
          stateRef.current = { ...stateRef.current, settled }
          setState(stateRef.current)
          return
        }
        const focus = v.focusTargetId
        const cand = v.targets.find((t) => t.targetId === focus)?.candidateId ?? v.candidates[0]?.id ?? null
        setCandidateId(cand)
        const order = v.targets.filter((t) => t.candidateId === cand).map((t) => t.targetId)
        stateRef.current = {
          ...A.withList(stateRef.current, order, withPending(labelsOf(v), v, pendingRef.current?.()), focus),
          settled,
        }
        setState(stateRef.current)
      } catch (e) {
        if (ticket === opened.current.count) setError(e instanceof Error ? e.message : String(e))
      }
    },
    [datasetId, annotatorId, stateRef, setState, setCandidateId],
  )

  // Blind mode reveals judges once I have labelled: refresh the item quietly after such a save.
  const viewRef = useRef(view)
  viewRef.current = view
  // The refresh waits for a pause in the labelling: run during a quick series of keys, it would
  // compete with the next label's save and render (one refresh covers every unit labelled so far).
  const revealTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const onSaved = useCallback(
    (targetId: number) => {
      const t = viewRef.current?.targets.find((x) => x.targetId === targetId)
      if (!t || !viewRef.current || !blindRef.current) return
      // A first label reveals the others; an undo or clear hides them again: either way main decides.
      const labelled = (stateRef.current.labels[targetId]?.verdict ?? null) !== null
      if (labelled === (t.judges !== null)) return
      const itemId = viewRef.current.item.id
      if (revealTimer.current) clearTimeout(revealTimer.current)
      revealTimer.current = setTimeout(() => {
        revealTimer.current = null
        if (viewRef.current?.item.id === itemId) void load({ itemId }, true)
      }, REVEAL_AFTER_MS)
    },
    [load, stateRef],
  )
  useEffect(
    () => () => {
      if (revealTimer.current) clearTimeout(revealTimer.current)
    },
    [],
  )

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when blind mode is switched
  useEffect(() => {
    if (viewRef.current) void load({ itemId: viewRef.current.item.id }, true)
  }, [blind])

  return { view, error, load, viewRef, onSaved }
}
