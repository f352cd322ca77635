import type { RefObject } from 'react'
import type { QueueEntry } from '../../../../shared/contract/agreement'
import type { LabelSchema } from '../../../../shared/labelSchemas'
import { countOf } from '../../../../shared/plural'
import { verdictKeys, verdictText } from '../../actions/keymap'
import { EvidenceText } from './EvidenceText'

export interface QueueDetailProps {
  entry: QueueEntry
  schema: LabelSchema
  note: string
  noteRef: RefObject<HTMLInputElement | null>
  canDecide: boolean
  /** Why this person may not decide this target (they labelled it), or null. */
  refusal: string | null
  busy: boolean
  onNote(note: string): void
  onDecide(verdict: string): void
}

/** One disputed target: the verdicts side by side, the texts with evidence, and the decision. */
export function QueueDetail(p: QueueDetailProps) {
  const e = p.entry
  const keys = verdictKeys(p.schema)
  return (
    <article className="agr-detail" aria-label="Disputed target">
      <header>
        <div className="agr-hint">
          item {e.extId} · {e.candidate.variant} · {e.unit.kind}
          {e.unit.version > 1 ? ` v${e.unit.version}` : ''}
        </div>
        {e.question && <div className="agr-question">{e.question}</div>}
        <blockquote className="agr-unit" data-testid="agr-unit">
          {e.unit.text}
        </blockquote>
      </header>
      <ul className="agr-verdicts" aria-label="Annotators' verdicts">
        {e.labels.map((l, i) => (
          <li key={l.annotatorId} className={`agr-verdict agr-a${i % 4}`} data-testid="agr-verdict">
            <div className="agr-verdict-who">{l.annotator}</div>
            <div className="agr-verdict-what">{verdictText(l.verdict)}</div>
            <div className="agr-verdict-note">
              {l.note ?? ''}
              {l.evidence.length > 0 && (
                <span className="agr-hint"> {countOf(l.evidence.length, 'evidence span')}</span>
              )}
            </div>
          </li>
        ))}
      </ul>
      <div className="agr-panes">
        <EvidenceText title="Reference" text={e.reference} pane="reference" labels={e.labels} />
        <EvidenceText
          title={`Answer “${e.candidate.variant}”`}
          text={e.candidate.text}
          pane="candidate"
          labels={e.labels}
        />
      </div>
      <footer className="agr-decide">
        {e.gold && (
          <p className="agr-gold" data-testid="agr-gold">
            Gold: <strong>{verdictText(e.gold.verdict)}</strong>
            {e.gold.adjudicator ? ` by ${e.gold.adjudicator}` : ` (${e.gold.source})`}
            {e.gold.adjudicatorLabelled ? ' (who had labelled it too)' : ''}
            {e.gold.note ? ` — ${e.gold.note}` : ''}
          </p>
        )}
        {p.refusal ? (
          <p className="agr-hint" data-testid="agr-refusal">
            {p.refusal}
          </p>
        ) : p.canDecide ? (
          <>
            <div className="agr-decide-buttons">
              {keys.map((k) => (
                <button
                  type="button"
                  key={k.verdict}
                  disabled={p.busy}
                  className={e.gold?.verdict === k.verdict ? 'primary' : ''}
                  onClick={() => p.onDecide(k.verdict)}
                >
                  {k.key && <kbd>{k.key}</kbd>} {verdictText(k.verdict)}
                </button>
              ))}
            </div>
            <input
              ref={p.noteRef}
              type="text"
              className="agr-note"
              aria-label="Adjudication note"
              placeholder="Why (optional; n to type, Enter to leave)"
              value={p.note}
              onChange={(ev) => p.onNote(ev.target.value)}
              onKeyDown={(ev) => {
                if (ev.key === 'Enter' || ev.key === 'Escape') ev.currentTarget.blur()
              }}
            />
          </>
        ) : (
          <p className="agr-hint">Choose who you are (at the top) to adjudicate.</p>
        )}
      </footer>
    </article>
  )
}
