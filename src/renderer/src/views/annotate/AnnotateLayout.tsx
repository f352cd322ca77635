import { useCallback, useMemo, useRef, useState } from 'react'
import type { AnnotateView as View } from '../../../../shared/contract/annotate'
import type { WordDiff } from '../../../../shared/wordDiff'
import type { VerdictKey } from '../../actions/keymap'
import type { KeyRow } from '../../actions/keys'
import type { AnnotateState, TargetLabel } from '../../actions/types'
import { Splitter } from '../../components/Splitter'
import { useSettings } from '../../settings'
import { KeyHelp } from './KeyHelp'
import { PendingBanner, RefusalBanner, SaveIndicator } from './StatusBits'
import { TextPane } from './TextPane'
import { UnitList } from './UnitList'
import { useDiffHighlights } from './useDiffHighlights'
import type { SaveStatus } from './useLabelSaver'
import { usePaneHighlights } from './usePaneHighlights'
import { VariantTabs } from './VariantTabs'

interface Props {
  view: View
  candidateId: number | null
  state: AnnotateState
  keys: VerdictKey[]
  /** Every bound key, for the footer. */
  keyRows: readonly KeyRow[]
  saveStatus: SaveStatus
  failed: Map<number, TargetLabel>
  notice: string | null
  error: string | null
  blind: boolean
  /** The guidelines toggle, kept in the bar (the same element while the guidelines stay the same). */
  guidelines: React.ReactNode
  paneRefs: React.RefObject<{ reference: HTMLDivElement | null; candidate: HTMLDivElement | null }>
  listRef: React.RefObject<HTMLDivElement | null>
  onRetry(): void
  onCandidate(id: number): void
  onFocus(targetId: number): void
  onPick(targetId: number, verdict: string): void
  onRemoveEvidence(targetId: number, index: number): void
  onNote(targetId: number): void
  onItem(itemId: number): void
}

/** "Identical to the reference", or the switch that paints the word diff. */
function comparison(
  diff: WordDiff | null,
  showDiff: boolean,
  setShowDiff: (next: (shown: boolean) => boolean) => void,
): React.ReactNode {
  if (!diff) return null
  if (diff.identical)
    return (
      <span
        className="chip"
        data-testid="identical"
        title="The answer is identical to the reference, word for word"
      >
        identical <span className="diff-word">to the answer</span>
      </span>
    )
  return (
    <button
      type="button"
      className={showDiff ? 'chip-button on' : 'chip-button'}
      aria-pressed={showDiff}
      tabIndex={-1}
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => setShowDiff((s) => !s)}
      title="Mark the words the answer adds (in the answer) and leaves out (in the reference)"
      data-testid="diff-toggle"
    >
      Diff · {Math.round(diff.shared * 100)}%<span className="diff-word"> shared</span>
    </button>
  )
}

/** Question on top, reference and answer side by side, units on the right. */
export function AnnotateLayout(p: Props) {
  const { view, state, candidateId } = p
  const { settings, update } = useSettings()
  const body = useRef<HTMLDivElement>(null)
  const refScroll = useRef<HTMLDivElement>(null)
  const candScroll = useRef<HTMLDivElement>(null)
  const candidate = view.candidates.find((c) => c.id === candidateId) ?? view.candidates[0]
  // One array per variant shown, so the memoised unit list skips renders that change no unit.
  const targets = useMemo(
    () => view.targets.filter((t) => t.candidateId === candidate?.id),
    [view.targets, candidate?.id],
  )
  const focused = targets.find((t) => t.targetId === state.focus) ?? null
  const reference = view.item.reference
  const answer = candidate?.text ?? ''
  // The variant's own name, as the CLI, the exports and Compare write it.
  const answerVariant = candidate?.variant ?? ''

  const texts = useMemo(() => ({ reference, candidate: answer }), [reference, answer])
  // The item's units with their answers, the variant on screen first, for the idle alignment.
  const ahead = useMemo(() => {
    const answers = new Map(view.candidates.map((c) => [c.id, c.text]))
    const others = view.targets.filter((t) => t.candidateId !== candidate?.id)
    return [...targets, ...others].map((t) => ({ unit: t.text, answer: answers.get(t.candidateId) ?? '' }))
  }, [view.candidates, view.targets, targets, candidate?.id])
  const { paneRefs } = p
  // Stable ref callbacks: a new one each render would detach and reattach the pane every label.
  const setReference = useCallback(
    (el: HTMLDivElement | null) => {
      paneRefs.current.reference = el
    },
    [paneRefs],
  )
  const setCandidate = useCallback(
    (el: HTMLDivElement | null) => {
      paneRefs.current.candidate = el
    },
    [paneRefs],
  )

  usePaneHighlights({
    roots: p.paneRefs,
    scrollers: { reference: refScroll, candidate: candScroll },
    focused,
    label: focused ? state.labels[focused.targetId] : undefined,
    texts,
    ahead,
  })

  const [showDiff, setShowDiff] = useState(false)
  const diff = useDiffHighlights(p.paneRefs, texts, showDiff)
  // Kept while the comparison stands: a new element on each render would re-render the pane.
  const compared = useMemo(() => comparison(diff, showDiff, setShowDiff), [diff, showDiff])

  const dragTo = (clientX: number) => {
    const box = body.current?.getBoundingClientRect()
    if (!box) return
    const textWidth = box.width - settings.unitsWidth
    update({ split: Math.min(0.8, Math.max(0.2, (clientX - box.left) / textWidth)) })
  }
  const dragUnits = (clientX: number) => {
    const box = body.current?.getBoundingClientRect()
    if (!box) return
    update({ unitsWidth: Math.min(800, Math.max(260, box.right - clientX)) })
  }
  const progressOf = (id: number) => {
    const of = view.targets.filter((t) => t.candidateId === id)
    return {
      done: of.filter((t) => (state.labels[t.targetId]?.verdict ?? null) !== null).length,
      total: of.length,
    }
  }
  const labelled = targets.filter((t) => (state.labels[t.targetId]?.verdict ?? null) !== null).length

  return (
    <div className="annotate">
      <div className="annotate-bar">
        <div className="crumbs">
          <span className="muted">{view.dataset.name}</span>
          <span className="muted">›</span>
          <span title={view.walk === 'share' ? 'Counted over the items assigned to you' : undefined}>
            Item {view.itemIndex + 1} of {view.walk === 'share' ? 'your ' : ''}
            {view.itemCount}
          </span>
          <span className="chip subtle">{view.item.extId}</span>
          <button
            type="button"
            className="ghost"
            disabled={!view.prevItemId}
            onClick={() => view.prevItemId && p.onItem(view.prevItemId)}
            title="Previous item ([)"
          >
            ‹
          </button>
          <button
            type="button"
            className="ghost"
            disabled={!view.nextItemId}
            onClick={() => view.nextItemId && p.onItem(view.nextItemId)}
            title="Next item (])"
          >
            ›
          </button>
        </div>
        <div className="bar-right">
          {p.guidelines}
          <button
            type="button"
            className={p.blind ? 'chip-button on' : 'chip-button'}
            aria-pressed={p.blind}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => update({ blind: !p.blind })}
            title="Blind mode (b): judge verdicts and other labels appear once you have labelled a unit"
          >
            Blind {p.blind ? 'on' : 'off'}
            {p.blind && view.hiddenJudgeVerdicts > 0 ? ` · ${view.hiddenJudgeVerdicts} hidden` : ''}
          </button>
          <SaveIndicator status={p.saveStatus} onRetry={p.onRetry} />
        </div>
      </div>
      <RefusalBanner status={p.saveStatus} />
      <PendingBanner status={p.saveStatus} />
      {p.error && (
        <p className="error-box annotate-error" role="alert">
          {p.error}
        </p>
      )}
      {p.notice && (
        <p className="notice" role="status">
          {p.notice}
        </p>
      )}
      {view.steppedOut && (
        <p className="error-box stepped-out" role="status">
          You stepped out of labelling this dataset to adjudicate it (Agreement view), so labels you give here
          are not saved. Your earlier labels are kept.
        </p>
      )}
      {view.item.question && (
        <div className="question">
          <span className="eyebrow">Question</span>
          <p>{view.item.question}</p>
        </div>
      )}
      <div
        className="annotate-body"
        ref={body}
        style={{
          gridTemplateColumns: `minmax(0, ${settings.split}fr) 6px minmax(0, ${1 - settings.split}fr) 6px ${settings.unitsWidth}px`,
        }}
      >
        <TextPane
          pane="reference"
          title="Reference"
          text={reference}
          scrollRef={refScroll}
          against={focused?.against === 'reference'}
          ref={setReference}
          // The comparison sits with the reference: the answer's header holds the variant tabs.
          extra={compared}
        />
        <Splitter
          label="Resize reference and answer"
          value={settings.split * 100}
          onDrag={dragTo}
          onKeyStep={(d) => update({ split: Math.min(0.8, Math.max(0.2, settings.split + d * 0.05)) })}
        />
        <TextPane
          pane="candidate"
          title={view.candidates.length === 1 ? `Answer · ${answerVariant}` : 'Answer'}
          text={answer}
          scrollRef={candScroll}
          against={focused?.against === 'candidate'}
          ref={setCandidate}
        >
          {view.candidates.length > 1 ? (
            <VariantTabs
              candidates={view.candidates}
              activeId={candidate?.id}
              progressOf={progressOf}
              onCandidate={p.onCandidate}
            />
          ) : undefined}
        </TextPane>
        <Splitter
          label="Resize the unit list"
          value={(settings.unitsWidth / 800) * 100}
          onDrag={dragUnits}
          onKeyStep={(d) =>
            update({ unitsWidth: Math.min(800, Math.max(260, settings.unitsWidth - d * 20)) })
          }
        />
        <section className="units-col" aria-label="Units to label">
          <header className="pane-head">
            <h2>Units</h2>
            <span className="pane-meta">
              {labelled} / {targets.length} labelled
            </span>
          </header>
          <UnitList
            schema={view.dataset.labelSchema}
            keys={p.keys}
            targets={targets}
            labels={state.labels}
            focus={state.focus}
            failed={p.failed}
            texts={texts}
            blind={p.blind}
            listRef={p.listRef}
            onFocus={p.onFocus}
            onPick={p.onPick}
            onRemoveEvidence={p.onRemoveEvidence}
            onNote={p.onNote}
          />
          <KeyHelp rows={p.keyRows} />
        </section>
      </div>
    </div>
  )
}
