import { memo } from 'react'
import type { AnnotateTarget } from '../../../../shared/contract/annotate'
import type { LabelSchema } from '../../../../shared/labelSchemas'
import type { VerdictKey } from '../../actions/keymap'
import { verdictText } from '../../actions/keymap'
import type { TargetLabel } from '../../actions/types'
import { VerdictBar, verdictTone } from './VerdictBar'

interface Props {
  target: AnnotateTarget
  index: number
  schema: LabelSchema
  keys: VerdictKey[]
  label: TargetLabel | undefined
  focused: boolean
  unsaved: boolean
  /** Texts of the panes, to quote evidence spans. */
  texts: { reference: string; candidate: string }
  blind: boolean
  onFocus(targetId: number): void
  onPick(targetId: number, verdict: string): void
  onRemoveEvidence(targetId: number, index: number): void
  onNote(targetId: number): void
}

const KIND_LABEL: Record<AnnotateTarget['kind'], string> = {
  fact: 'Fact',
  triplet: 'Claim',
  sentence: 'Sentence',
  whole: 'Whole answer',
}

function quote(text: string, start: number, end: number): string {
  const s = text.slice(start, end)
  return s.length > 80 ? `${s.slice(0, 77)}…` : s
}

/**
 * One unit of the list. Memoised: a label touches two rows (the one labelled and the one that
 * takes the focus), so the other rows must not re-render; every prop is kept stable for that.
 */
export const UnitRow = memo(function UnitRow(p: Props) {
  const { target: t, index: i, schema, label, focused, unsaved } = p
  const verdict = label?.verdict ?? null
  // An undone or cleared label hides the others again at once; main's quiet refresh follows.
  const hidden = p.blind && verdict === null
  return (
    // biome-ignore lint/a11y/useFocusableInteractive: the listbox holds focus (aria-activedescendant)
    <div
      key={t.targetId}
      id={`unit-${t.targetId}`}
      role="option"
      aria-selected={focused}
      data-verdict={verdict ?? ''}
      className={`unit${focused ? ' focused' : ''}${verdict ? ` labelled ${verdictTone(schema, verdict)}` : ''}`}
      onMouseDown={() => p.onFocus(t.targetId)}
    >
      <div className="unit-head">
        <span className="unit-index">{i + 1}</span>
        <div className="unit-body">
          <span className="unit-state" title={unsaved ? 'Not saved' : undefined}>
            {unsaved ? (
              // Not by colour alone: a hollow pill with a warning mark, and words for a screen reader.
              <span className="pill unsaved" data-testid="unsaved">
                <span aria-hidden="true">⚠ </span>
                {verdict ? verdictText(verdict) : 'cleared'}
                <span className="visually-hidden"> (not saved yet)</span>
              </span>
            ) : verdict ? (
              <span className={`pill ${verdictTone(schema, verdict)}`}>{verdictText(verdict)}</span>
            ) : null}
          </span>
          <span className="unit-text">
            {t.triplet ? (
              // Each part is named on hover, so subject and object are never mistaken for each other.
              <span className="triplet" data-testid="triplet">
                <span title="Subject">{t.triplet[0]}</span>
                <span className="pred" title="Predicate">
                  {t.triplet[1]}
                </span>
                <span title="Object">{t.triplet[2]}</span>
              </span>
            ) : t.kind === 'whole' && t.text.trim() === p.texts.candidate.trim() ? (
              // A pair (MRPC, QQP, PAWS): both sentences are in the panes; a third copy here says nothing.
              <span className="muted" data-testid="whole-answer">
                The whole answer, as shown beside
              </span>
            ) : (
              t.text
            )}
          </span>
        </div>
      </div>
      {focused && (
        <div className="unit-detail">
          <div className="unit-kind muted small">
            {KIND_LABEL[t.kind]} · judged against the {t.against === 'candidate' ? 'answer' : 'reference'}
            {t.disputed && !hidden && <span className="chip warn">disputed</span>}
            {t.settled && (
              <span className="chip" title="This target already has the labels the plan asks for">
                done by others
              </span>
            )}
          </div>
          <VerdictBar
            schema={schema}
            keys={p.keys}
            current={verdict}
            onPick={(v) => p.onPick(t.targetId, v)}
          />
          {label && label.evidence.length > 0 && (
            <ul className="evidence">
              {label.evidence.map((e, j) => (
                <li key={`${e.pane}-${e.start}-${e.end}`}>
                  <span className="evidence-pane">{e.pane === 'candidate' ? 'answer' : 'reference'}</span>
                  <q>{quote(p.texts[e.pane], e.start, e.end)}</q>
                  <button
                    type="button"
                    className="ghost tiny"
                    aria-label="Remove this evidence"
                    title="Remove this evidence (Shift+E removes the last one)"
                    onMouseDown={(ev) => ev.preventDefault()}
                    onClick={() => p.onRemoveEvidence(t.targetId, j)}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
          {label?.note && (
            <button
              type="button"
              className="note"
              aria-label={`Edit the note: ${label.note}`}
              title="Edit the note (n)"
              onMouseDown={(ev) => ev.preventDefault()}
              onClick={() => p.onNote(t.targetId)}
            >
              {label.note}
            </button>
          )}
          <Others
            target={hidden ? { ...t, others: null, judges: null } : t}
            schema={schema}
            blind={p.blind}
          />
        </div>
      )}
    </div>
  )
})

function Others({ target, schema, blind }: { target: AnnotateTarget; schema: LabelSchema; blind: boolean }) {
  if (target.judges === null)
    return blind ? (
      <p className="muted small blind-note">Judge verdicts stay hidden until you label this unit.</p>
    ) : null
  if (target.judges.length === 0 && (target.others?.length ?? 0) === 0) return null
  return (
    <div className="others">
      {target.others?.map((o) => (
        <div key={o.annotator} className="other">
          <span className="who-small">{o.annotator}</span>
          <span className={`pill ${verdictTone(schema, o.verdict)}`}>{verdictText(o.verdict)}</span>
        </div>
      ))}
      {target.judges.map((j) => (
        <div key={j.runId} className="judge">
          <div className="judge-head">
            <span className="who-small">{j.judge}</span>
            {j.status === 'ok' && j.verdict ? (
              <span className={`pill ${verdictTone(schema, j.verdict)}`}>{verdictText(j.verdict)}</span>
            ) : (
              <span className="pill tone-none">{j.status === 'na' ? 'N/A' : 'error'}</span>
            )}
          </div>
          {j.reason && <p className="small">{j.reason}</p>}
          {j.citation && <blockquote className="small">{j.citation}</blockquote>}
        </div>
      ))}
    </div>
  )
}
