import type { QueueEntry } from '../../../../shared/contract/agreement'
import type { Pane } from '../../../../shared/domain'
import { hasReference, NO_REFERENCE, NO_REFERENCE_HINT } from '../../../../shared/noReference'
import { type Mark, segmentText } from './format'

/** A source text with every annotator's evidence in it, one colour per annotator. */
export function EvidenceText(props: {
  title: string
  text: string
  pane: Pane
  labels: QueueEntry['labels']
}) {
  const marks: Mark[] = props.labels.flatMap((l, owner) =>
    l.evidence.filter((s) => s.pane === props.pane).map((s) => ({ start: s.start, end: s.end, owner })),
  )
  return (
    <section className="agr-pane" aria-label={props.title}>
      <h4>{props.title}</h4>
      {props.pane === 'reference' && !hasReference(props.text) && (
        <p className="agr-hint" title={NO_REFERENCE_HINT}>
          {NO_REFERENCE}
        </p>
      )}
      <p className="agr-source">
        {segmentText(props.text, marks).map((s) =>
          s.owners.length === 0 ? (
            <span key={s.start}>{s.text}</span>
          ) : (
            <mark
              key={s.start}
              className={s.owners.length > 1 ? 'agr-mark agr-mark-many' : `agr-mark agr-a${s.owners[0]! % 4}`}
              title={`Evidence of ${s.owners.map((o) => props.labels[o]?.annotator).join(' and ')}`}
            >
              {s.text}
            </mark>
          ),
        )}
      </p>
    </section>
  )
}
