import { useState } from 'react'
import { describeControlProblems, parseControlLines } from '../../../../shared/controlLines'
import { api } from '../../api'

/** Marks controls from gold or from pasted answers; the count comes from the dashboard. */
export function ControlsPanel({
  datasetId,
  count,
  onChanged,
}: {
  datasetId: number
  count: number
  onChanged(): void
}) {
  const [text, setText] = useState('')
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null)
  // Read as the lead types, so a line that cannot be read is named before anything is sent; the
  // main process then finds each named item and unit, and names the lines it could not place.
  const parsed = parseControlLines(text)
  const run = async (input: { allGold?: boolean; lines?: string }) => {
    try {
      const r = await api('projects.setControls', { datasetId, ...input })
      const skipped =
        r.skipped > 0
          ? ` ${r.skipped} ${r.skipped === 1 ? 'target was' : 'targets were'} skipped: the dataset's sources disagree on ${r.skipped === 1 ? 'it' : 'them'}.`
          : ''
      setMessage(
        input.allGold && r.controls === 0
          ? {
              ok: false,
              text: `No target has adjudicated or imported gold or a reference label yet.${skipped} Decide disputes in the Agreement view, or paste known answers below. (Majority votes are not used: a control must not come from the people it checks.)`,
            }
          : { ok: true, text: `${r.added} marked; ${r.controls} controls in all.${skipped}` },
      )
      if (!input.allGold) setText('')
      onChanged()
    } catch (e) {
      setMessage({ ok: false, text: e instanceof Error ? e.message : String(e) })
    }
  }
  return (
    <section className="card" aria-label="Controls">
      <h2>
        Control items <span className="muted">{count} marked</span>
      </h2>
      <p className="muted">
        Targets with a known answer, mixed into the queue unmarked at the plan's rate. Accuracy is shown here,
        never to the annotator.
      </p>
      <button type="button" onClick={() => void run({ allGold: true })}>
        Use every gold answer (or else the dataset's reference labels)
      </button>
      <p className="muted small" id="control-lines-help">
        Or give known answers, one per line: the item's id, the variant, the unit's number as the Units view
        shows it, and the verdict — e.g. <code>q17,answer,2,false</code>. Lines of{' '}
        <code>targetId,verdict</code> still work.
      </p>
      <textarea
        aria-label="Control answers"
        aria-describedby="control-lines-help"
        rows={3}
        value={text}
        onChange={(e) => {
          setMessage(null)
          setText(e.target.value)
        }}
        placeholder={'item,variant,unit,verdict — e.g. q17,answer,2,false (or load a CSV)'}
      />
      <input
        type="file"
        accept=".csv,.tsv,.txt"
        aria-label="Control answers file"
        onChange={(e) => {
          const f = e.target.files?.[0]
          if (f) void f.text().then(setText)
        }}
      />
      {parsed.problems.length > 0 && (
        <p className="error-box" role="alert" data-testid="control-lines-problems">
          Not understood: {describeControlProblems(parsed.problems)}.
        </p>
      )}
      <button
        type="button"
        disabled={parsed.lines.length === 0 || parsed.problems.length > 0}
        title={
          parsed.lines.length === 0
            ? 'Type or load answers first'
            : parsed.problems.length > 0
              ? 'Correct the lines named above first'
              : undefined
        }
        onClick={() => void run({ lines: text })}
      >
        Mark these as controls
      </button>
      {message && <p className={message.ok ? 'muted' : 'error-box'}>{message.text}</p>}
    </section>
  )
}
