import { useEffect, useRef, useState } from 'react'
import { tinykeys } from 'tinykeys'
import type { QueuePage, QueueStatus } from '../../../../shared/contract/agreement'
import { verdictKeys, verdictText } from '../../actions/keymap'
import { api, onEvent } from '../../api'
import { LoadFailed, Loading } from '../../components/Loading'
import { useQuery } from '../../hooks'
import { useViewer } from '../../settings'
import { BlindBar } from './BlindBar'
import { QueueDetail } from './QueueDetail'

const PAGE = 200

export interface QueuePanelProps {
  datasetId: number
  adjudicatorId: number | null
  variants: string[]
}

/** The adjudication queue: disputed targets on the left, the one in hand on the right. */
export function QueuePanel({ datasetId, adjudicatorId, variants }: QueuePanelProps) {
  const [status, setStatus] = useState<Exclude<QueueStatus, 'all'>>('open')
  const [variant, setVariant] = useState('')
  const [limit, setLimit] = useState(PAGE)
  const [index, setIndex] = useState(0)
  const [note, setNote] = useState('')
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null)
  const noteRef = useRef<HTMLInputElement>(null)
  const viewer = useViewer()
  const q = useQuery(
    () => api('agreement.queue', { datasetId, status, limit, viewer, ...(variant ? { variant } : {}) }),
    [datasetId, status, variant, limit, viewer],
  )
  const { reload } = q
  useEffect(
    () => onEvent('labels.changed', (e) => e.datasetId === datasetId && reload()),
    [datasetId, reload],
  )
  const page: QueuePage | undefined = q.data
  const entries = page?.entries ?? []
  const at = Math.min(index, Math.max(entries.length - 1, 0))
  const entry = entries[at]
  const entryId = entry?.targetId
  const goldNote = entry?.gold?.note ?? ''
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new target in hand resets the note; a decided one shows its note for revision
  useEffect(() => setNote(goldNote), [entryId])

  const decide = async (verdict: string) => {
    if (!entry || adjudicatorId === null || busy) return
    setBusy(true)
    try {
      await api('agreement.adjudicate', {
        targetId: entry.targetId,
        verdict,
        adjudicatorId,
        ...(note.trim() ? { note } : {}),
      })
      setMessage({
        text: `Item ${entry.extId} (${entry.candidate.variant}): gold is now “${verdictText(verdict)}”.`,
        error: false,
      })
      // On the open list the decided target drops out, so the same index shows the next one.
    } catch (e) {
      setMessage({ text: e instanceof Error ? e.message : String(e), error: true })
    } finally {
      setBusy(false)
      q.reload()
    }
  }

  const keys = useRef({ decide, move: (_by: number) => {}, focusNote: () => {} })
  keys.current = {
    decide,
    move: (by) => setIndex(Math.min(Math.max(at + by, 0), Math.max(entries.length - 1, 0))),
    focusNote: () => noteRef.current?.focus(),
  }
  const schema = page?.labelSchema
  useEffect(() => {
    if (!schema) return
    const bindings: [string, (e: KeyboardEvent) => void][] = [
      ['j', () => keys.current.move(1)],
      ['k', () => keys.current.move(-1)],
      ['ArrowDown', () => keys.current.move(1)],
      ['ArrowUp', () => keys.current.move(-1)],
      [
        'n',
        (e) => {
          e.preventDefault()
          keys.current.focusNote()
        },
      ],
    ]
    for (const k of verdictKeys(schema))
      if (k.key) bindings.push([k.key, () => void keys.current.decide(k.verdict)])
    return tinykeys(window, Object.fromEntries(bindings))
  }, [schema])

  return (
    <section className="agr-queue" aria-label="Adjudication queue">
      <div className="agr-queue-bar">
        <div role="tablist" aria-label="Queue">
          {(['open', 'adjudicated'] as const).map((s) => (
            <button
              type="button"
              role="tab"
              key={s}
              aria-selected={status === s}
              className={status === s ? 'primary' : ''}
              onClick={() => {
                setStatus(s)
                setIndex(0)
              }}
            >
              {s === 'open' ? 'To adjudicate' : 'Adjudicated'} (
              {s === 'open' ? (page?.open ?? '…') : (page?.adjudicated ?? '…')})
            </button>
          ))}
        </div>
        <label>
          Variant{' '}
          <select
            value={variant}
            onChange={(e) => {
              setVariant(e.target.value)
              setIndex(0)
            }}
          >
            <option value="">all</option>
            {variants.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </label>
        <span className="agr-hint">j/k move · digits decide · n note</span>
      </div>
      {page && (page.hidden > 0 || !page.steppedOut) && (
        <BlindBar
          datasetId={datasetId}
          adjudicatorId={adjudicatorId}
          page={page}
          blind={viewer.blind}
          onChange={q.reload}
        />
      )}
      {page &&
        status === 'open' &&
        !page.allowSelfAdjudication &&
        adjudicatorId !== null &&
        entries.length > 0 &&
        entries.every((e) => e.labels.some((l) => l.annotatorId === adjudicatorId)) && (
          // Blind mode lists only disputes I labelled, and those I may not decide: say so up front.
          <p className="agr-hint" data-testid="queue-all-mine">
            You labelled every dispute listed here yourself, so none is yours to decide: another adjudicator
            decides them, or tick self-adjudication above.
          </p>
        )}
      <p role="status" className={message?.error ? 'agr-status agr-error' : 'agr-status'}>
        {message?.text ?? ''}
      </p>
      {q.error && page && <p className="agr-error">{q.error}</p>}
      {q.error && !page && <LoadFailed what="the adjudication queue" error={q.error} onRetry={q.reload} />}
      {!page && !q.error && (
        <Loading what="the adjudication queue" detail="Finding the targets where people disagree." />
      )}
      {page && entries.length === 0 ? (
        <p className="agr-hint">
          {status !== 'open'
            ? 'No decisions yet.'
            : page.hidden > 0
              ? 'Nothing you can adjudicate yet: blind mode holds back every open dispute (see above).'
              : 'Nothing to adjudicate: no open disagreements.'}
        </p>
      ) : (
        <div className="agr-queue-body">
          <ol className="agr-list" aria-label="Disputed targets">
            {entries.map((e, i) => (
              <li key={e.targetId} data-testid="queue-entry" aria-current={i === at ? 'true' : undefined}>
                <button
                  type="button"
                  className={i === at ? 'agr-item current' : 'agr-item'}
                  onClick={() => setIndex(i)}
                >
                  <span className="agr-item-unit">{e.unit.text}</span>
                  <span className="agr-hint">
                    item {e.extId} · {e.candidate.variant} ·{' '}
                    {e.labels.map((l) => `${l.annotator}: ${verdictText(l.verdict)}`).join(', ')}
                    {e.gold ? ` → ${verdictText(e.gold.verdict)}` : ''}
                  </span>
                </button>
              </li>
            ))}
            {page && page.total > entries.length && (
              <li>
                <button type="button" onClick={() => setLimit((l) => l + PAGE)}>
                  Show more ({page.total - entries.length} left)
                </button>
              </li>
            )}
          </ol>
          {entry && schema && (
            <QueueDetail
              entry={entry}
              schema={schema}
              note={note}
              noteRef={noteRef}
              canDecide={adjudicatorId !== null}
              refusal={
                !page?.allowSelfAdjudication && entry.labels.some((l) => l.annotatorId === adjudicatorId)
                  ? 'You labelled this target yourself, so another adjudicator decides it.'
                  : null
              }
              busy={busy}
              onNote={setNote}
              onDecide={(v) => void decide(v)}
            />
          )}
        </div>
      )}
    </section>
  )
}
