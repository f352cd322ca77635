import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { countOf } from '../../../../shared/plural'
import * as A from '../../actions/annotate'
import { verdictKeys } from '../../actions/keymap'
import { keyTable } from '../../actions/keys'
import type { Action, AnnotateState, Effect, KeyEnv, TargetLabel } from '../../actions/types'
import { api } from '../../api'
import { useSettings } from '../../settings'
import { GuidelinesGate, GuidelinesPanel, useGuidelines } from '../project/GuidelinesPanel'
import type { Route, ViewProps } from '../types'
import { AnnotateLayout } from './AnnotateLayout'
import { selectionSpan } from './highlights'
import { nextUnlabelledInItem, nextVariantWithWork } from './itemOrder'
import { KeySheet } from './KeySheet'
import { NoteDialog } from './NoteDialog'
import { prepareHitTest } from './prepareHitTest'
import { useAnnotateItem } from './useAnnotateItem'
import { useAnnotateKeys } from './useAnnotateKeys'
import { useLabelSaver } from './useLabelSaver'

type Props = ViewProps & { route: Extract<Route, { view: 'annotate' }> }

/** Quiet time after a focus move before the URL follows it. */
const URL_AFTER_MS = 200

const EMPTY: AnnotateState = { order: [], focus: null, labels: {}, undo: [] }

/** The labelling screen: loads one item, runs the keyboard actions, saves every change at once. */
export function AnnotateView({ route, annotatorId, navigate }: Props) {
  const { settings, update } = useSettings()
  const [candidateId, setCandidateId] = useState<number | null>(null)
  const [state, setState] = useState<AnnotateState>(EMPTY)
  const [noteFor, setNoteFor] = useState<number | null>(null)
  const [sheetOpen, setSheetOpen] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const stateRef = useRef(state)
  const panes = useRef<{ reference: HTMLDivElement | null; candidate: HTMLDivElement | null }>({
    reference: null,
    candidate: null,
  })
  const listRef = useRef<HTMLDivElement | null>(null)
  const { datasetId } = route
  const pendingRef = useRef<() => Map<number, TargetLabel>>(() => new Map())
  const { view, error, load, viewRef, onSaved } = useAnnotateItem({
    pending: () => pendingRef.current(),
    datasetId,
    annotatorId,
    blind: settings.blind,
    stateRef,
    setState,
    setCandidateId,
  })

  useEffect(() => {
    void load({ targetId: route.targetId, itemId: route.itemId })
  }, [load, route.targetId, route.itemId])

  const guidelines = useGuidelines(datasetId, annotatorId)
  // A refused label is taken back and the item read again, whatever the reason: the unit or its
  // wording may be gone (a package opened from the CLI, an import withdrawn tells no open window),
  // or labelling here closed to this person. The screen then shows what the workspace holds (a
  // reload alone would keep the refused label, since it lays the stored labels over the shown
  // ones), the guidelines chip is read again, and the banner under the bar says why.
  const { reload: reloadGuidelines } = guidelines
  // biome-ignore lint/correctness/useExhaustiveDependencies: viewRef is useAnnotateItem's ref, read when a save is refused
  const onRefused = useCallback(
    (targetId: number, stored: TargetLabel | undefined, _reason: string) => {
      const mine = viewRef.current?.targets.find((t) => t.targetId === targetId)?.mine
      const back =
        stored ?? (mine ? { verdict: mine.verdict, evidence: mine.evidence, note: mine.note } : undefined)
      const labels = { ...stateRef.current.labels }
      if (back) labels[targetId] = back
      else delete labels[targetId]
      stateRef.current = { ...stateRef.current, labels }
      setState(stateRef.current)
      const itemId = viewRef.current?.item.id
      if (itemId !== undefined) void load({ itemId })
      reloadGuidelines()
    },
    [load, reloadGuidelines],
  )
  // Labels kept from before a reload are shown on the item open now until they are saved.
  // biome-ignore lint/correctness/useExhaustiveDependencies: viewRef is useAnnotateItem's ref
  const onRestored = useCallback((restored: Map<number, TargetLabel>) => {
    const shown = new Set(viewRef.current?.targets.map((t) => t.targetId) ?? [])
    const labels = { ...stateRef.current.labels }
    let changed = false
    for (const [targetId, label] of restored)
      if (shown.has(targetId)) {
        labels[targetId] = label
        changed = true
      }
    if (!changed) return
    stateRef.current = { ...stateRef.current, labels }
    setState(stateRef.current)
  }, [])
  const saver = useLabelSaver(annotatorId, onSaved, guidelines.shownVersion, onRefused, onRestored)
  pendingRef.current = saver.pending

  useEffect(() => {
    saver.focusChanged(state.focus)
    // Keep the URL on the focused unit so a reload comes back to it. Rewriting the URL costs a
    // millisecond or more, so it waits until the focus settles instead of running on every key.
    if (state.focus === null) return
    const hash = `#/annotate/${datasetId}?target=${state.focus}`
    // A navigation in the meantime owns the URL: it is left alone then.
    const from = window.location.hash
    const t = setTimeout(() => {
      if (window.location.hash === from && from !== hash) window.history.replaceState(null, '', hash)
    }, URL_AFTER_MS)
    return () => clearTimeout(t)
  }, [state.focus, datasetId, saver.focusChanged])

  useEffect(() => {
    if (!notice) return
    const t = setTimeout(() => setNotice(null), 3500)
    return () => clearTimeout(t)
  }, [notice])

  const labelledNow = (id: number) => (stateRef.current.labels[id]?.verdict ?? null) !== null
  const variantName = (id: number) => view?.candidates.find((c) => c.id === id)?.variant ?? ''

  const goNextUnlabelled = async (after: number | null) => {
    if (annotatorId === null) return
    // This item first: a unit left open before the focus or in another variant comes before any
    // other item's.
    if (view) {
      const here = nextUnlabelledInItem(view.targets, labelledNow, after, candidateId)
      if (here) {
        if (here.candidateId !== candidateId) {
          switchCandidate(here.candidateId, here.targetId)
          setNotice(`Moved to ${variantName(here.candidateId)}: it has units left in this item.`)
        } else {
          stateRef.current = { ...stateRef.current, focus: here.targetId }
          setState(stateRef.current)
        }
        return
      }
    }
    await saver.flush()
    const r = await api('annotate.next', { datasetId, annotatorId, afterTargetId: after ?? undefined })
    if (r.targetId === null) return setNotice('Everything in this dataset is labelled. Well done!')
    if (view && r.itemId === view.item.id)
      switchCandidate(view.targets.find((t) => t.targetId === r.targetId)!.candidateId, r.targetId)
    else navigate({ view: 'annotate', datasetId, targetId: r.targetId })
  }

  function apply(effects: Effect[]) {
    for (const e of effects) {
      if (e.type === 'save') void saver.save(e.targetId, e.label)
      else if (e.type === 'notice') setNotice(e.message)
      else if (e.type === 'openNote') setNoteFor(e.targetId)
      else if (e.type === 'nextUnlabelled') void goNextUnlabelled(e.afterTargetId)
      else if (e.type === 'variant') cycleVariant(e.delta)
      else if (e.type === 'showKeys') setSheetOpen(true)
      else if (e.type === 'blind') update({ blind: !settings.blind })
      else if (e.type === 'item') {
        const itemId = e.step === 'next' ? view?.nextItemId : view?.prevItemId
        if (itemId) navigate({ view: 'annotate', datasetId, itemId })
      }
    }
  }

  function run<Arg>(action: Action<Arg>, arg: Arg) {
    // Only a first label can finish a variant; correcting one in a finished variant stays put.
    const focus = stateRef.current.focus
    const fresh = focus !== null && !labelledNow(focus)
    const r = action.perform(stateRef.current, arg)
    stateRef.current = r.state
    setState(r.state)
    // A message speaks of the state before this key ("every unit is labelled" before an undo):
    // the next action retires it, and says its own if it has one.
    setNotice(null)
    apply(r.effects)
    if (fresh && action === (A.labelVerdict as Action<unknown>)) afterLabel()
    // Focus stays on the list after a label, whatever was clicked.
    if (noteFor === null && document.activeElement === document.body)
      listRef.current?.focus({ preventScroll: true })
  }

  // The unit rows are memoised: their callbacks must keep one identity and reach the latest `run`.
  const runRef = useRef(run)
  runRef.current = run
  const rowHandlers = useMemo(
    () => ({
      onFocus: (id: number) => runRef.current(A.focusTarget, id),
      onPick: (id: number, v: string) => {
        runRef.current(A.focusTarget, id)
        runRef.current(A.labelVerdict, v)
      },
      onRemoveEvidence: (targetId: number, index: number) =>
        runRef.current(A.removeEvidence, { targetId, index }),
      onNote: (id: number) => setNoteFor(id),
    }),
    [],
  )

  /** A label that finished this variant hands over to the next variant with work, and says so. */
  function afterLabel() {
    if (!view || candidateId === null) return
    const next = nextVariantWithWork(view.candidates, view.targets, labelledNow, candidateId)
    if (next) {
      switchCandidate(next.candidateId, next.first)
      setNotice(
        `${variantName(candidateId)} is done. Now ${next.variant}: ${countOf(next.left, 'unit')} left.`,
      )
      return
    }
    const mine = view.targets.filter((t) => t.candidateId === candidateId)
    if (mine.every((t) => labelledNow(t.targetId)) && view.targets.every((t) => labelledNow(t.targetId)))
      setNotice(
        'Every unit of this item is labelled. Enter goes to the next unlabelled one; ] to the next item.',
      )
  }

  function switchCandidate(id: number, focus: number | null = null) {
    if (!view) return
    setCandidateId(id)
    const order = view.targets.filter((t) => t.candidateId === id).map((t) => t.targetId)
    stateRef.current = A.withList(stateRef.current, order, {}, focus)
    setState(stateRef.current)
  }

  function cycleVariant(delta: number) {
    if (!view || view.candidates.length < 2) return
    const i = view.candidates.findIndex((c) => c.id === candidateId)
    const next = view.candidates[(i + delta + view.candidates.length) % view.candidates.length]!
    switchCandidate(next.id)
  }

  const schema = view?.dataset.labelSchema
  const keys = useMemo(() => (schema ? verdictKeys(schema) : []), [schema])
  const keyEnv: KeyEnv = {
    verdictKeys: keys,
    selection: () =>
      selectionSpan([
        { pane: 'reference', root: panes.current.reference },
        { pane: 'candidate', root: panes.current.candidate },
      ]),
  }
  // The rows' arguments are read when a key is pressed, so the table only follows the schema.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyEnv reads the panes through a ref
  const keyRows = useMemo(() => keyTable(A.KEY_ACTIONS, keyEnv), [keys])
  useAnnotateKeys(
    A.KEY_ACTIONS,
    keyEnv,
    run,
    view !== null && noteFor === null && !sheetOpen && !guidelines.gated,
  )

  // The list takes the keyboard as soon as it is shown, not on the first label: moving the focus
  // restyles the list and runs focus events, work that would otherwise land in that label's frame.
  const shown = view !== null
  useEffect(() => {
    if (shown && (document.activeElement === null || document.activeElement === document.body))
      listRef.current?.focus({ preventScroll: true })
  }, [shown])

  // Once the guidelines are read the keyboard goes back to the list, where it was before they came up.
  const wasGated = useRef(false)
  useEffect(() => {
    if (wasGated.current && !guidelines.gated) listRef.current?.focus({ preventScroll: true })
    wasGated.current = guidelines.gated
  }, [guidelines.gated])

  // Last of the effects a key press runs (a parent's effects follow its children's): the rows,
  // the list's scroll and the panes' highlights are all in place by now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after every change of the labels or the focus
  useEffect(() => {
    prepareHitTest()
  }, [state])

  // The guidelines change when a new version is read, not when a unit is labelled.
  const guidelinesPanel = useMemo(() => <GuidelinesPanel guidelines={guidelines.data} />, [guidelines.data])

  if (annotatorId === null) return <div className="page muted">Choose who is labelling to start.</div>
  if (error && !view)
    return (
      <div className="page">
        <p className="error-box">{error}</p>
      </div>
    )
  if (!view || !schema) return <div className="page muted">Loading…</div>

  const noteTarget = noteFor === null ? null : view.targets.find((t) => t.targetId === noteFor)
  return (
    <>
      <AnnotateLayout
        view={view}
        candidateId={candidateId}
        state={state}
        keys={keys}
        keyRows={keyRows}
        saveStatus={saver.status}
        failed={saver.failed}
        notice={notice}
        error={error}
        blind={settings.blind}
        guidelines={guidelinesPanel}
        paneRefs={panes}
        listRef={listRef}
        onRetry={saver.retry}
        onCandidate={(id) => switchCandidate(id)}
        onFocus={rowHandlers.onFocus}
        onPick={rowHandlers.onPick}
        onRemoveEvidence={rowHandlers.onRemoveEvidence}
        onNote={rowHandlers.onNote}
        onItem={(itemId) => navigate({ view: 'annotate', datasetId, itemId })}
      />
      {guidelines.gated && guidelines.data && (
        <GuidelinesGate
          guidelines={guidelines.data}
          datasetId={datasetId}
          annotatorId={annotatorId}
          onRead={guidelines.reload}
        />
      )}
      {sheetOpen && (
        <KeySheet
          rows={keyRows}
          onClose={() => {
            setSheetOpen(false)
            listRef.current?.focus({ preventScroll: true })
          }}
        />
      )}
      {noteTarget && (
        <NoteDialog
          unitText={noteTarget.text}
          initial={state.labels[noteTarget.targetId]?.note ?? ''}
          onCancel={() => {
            setNoteFor(null)
            listRef.current?.focus({ preventScroll: true })
          }}
          onSave={(text) => {
            setNoteFor(null)
            run(A.setNote, { targetId: noteTarget.targetId, note: text })
            listRef.current?.focus({ preventScroll: true })
          }}
        />
      )}
    </>
  )
}
