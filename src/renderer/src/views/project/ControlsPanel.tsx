import { useState } from 'react'
import type { CallOutput } from '../../../../shared/contract'
import { describeControlProblems, parseControlLines } from '../../../../shared/controlLines'
import { markedWords } from '../../../../shared/controlsMarked'
import { countOf } from '../../../../shared/plural'
import { api } from '../../api'

type SetResult = CallOutput<'projects.setControls'>
type Preview = SetResult

const toLabelWords = (r: { targets: number; toLabel: number }) =>
  `${r.toLabel} of ${countOf(r.targets, 'target')} left to label`

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
  // How many gold answers become controls: a sample, a tenth of the targets unless the lead says otherwise.
  const [howMany, setHowMany] = useState('')
  const [pending, setPending] = useState<Preview | null>(null)
  const sample = howMany.trim() === '' ? undefined : { count: Number(howMany) }
  const badCount = sample !== undefined && !(Number.isInteger(sample.count) && sample.count >= 1)
  const say = (input: { allGold?: boolean }, r: SetResult) => {
    const skipped =
      r.skipped > 0
        ? ` ${countOf(r.skipped, 'target was', 'targets were')} skipped: the dataset's sources disagree on ${r.skipped === 1 ? 'it' : 'them'}.`
        : ''
    setMessage(
      input.allGold && r.controls === 0
        ? {
            ok: false,
            text: `No target has adjudicated or imported gold or a reference label yet.${skipped} Decide disputes in the Agreement view, or paste known answers below. (Majority votes are not used: a control must not come from the people it checks.)`,
          }
        : {
            ok: true,
            text: `${markedWords(r)}; ${countOf(r.controls, 'control')} in all; ${toLabelWords(r)}.${skipped}`,
          },
    )
  }
  const run = async (input: { allGold?: boolean; lines?: string; everyTarget?: boolean }) => {
    try {
      const r = await api('projects.setControls', {
        datasetId,
        ...input,
        ...(input.allGold && sample ? { sample } : {}),
      })
      say(input, r)
      setPending(null)
      if (!input.allGold) setText('')
      onChanged()
    } catch (e) {
      setMessage({ ok: false, text: e instanceof Error ? e.message : String(e) })
    }
  }
  const clearAll = async () => {
    try {
      const targetIds = (await api('projects.controls', { datasetId })).map((c) => c.targetId)
      const r = await api('projects.clearControls', { datasetId, targetIds })
      setMessage({
        ok: true,
        text: `${countOf(targetIds.length - r.controls, 'control')} unmarked; ${r.controls} left.`,
      })
      onChanged()
    } catch (e) {
      setMessage({ ok: false, text: e instanceof Error ? e.message : String(e) })
    }
  }
  // Gold answers are drawn only after the lead has read what the draw will do.
  const preview = async () => {
    setMessage(null)
    try {
      const r = await api('projects.setControls', {
        datasetId,
        allGold: true,
        preview: true,
        ...(sample ? { sample } : {}),
      })
      if (r.added === 0) say({ allGold: true }, r)
      else setPending(r)
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
      <div className="controls-from-gold">
        <label>
          Controls to draw from the gold answers{' '}
          <input
            type="number"
            min={1}
            inputMode="numeric"
            aria-label="Controls to draw"
            placeholder="a tenth of the targets"
            value={howMany}
            onChange={(e) => {
              setPending(null)
              setHowMany(e.target.value)
            }}
          />
        </label>{' '}
        <button type="button" disabled={badCount} onClick={() => void preview()}>
          Draw controls from gold answers…
        </button>
      </div>
      <p className="muted small">
        Gold answers are adjudicated or imported gold, or else the dataset's reference labels.
      </p>
      {badCount && <p className="error-box">Give a whole number of controls, at least 1.</p>}
      {pending && (
        <div className="notice-box controls-confirm" role="alertdialog" aria-label="Confirm controls">
          <p>
            {pending.toLabel === 0
              ? `This makes ${pending.targets === 1 ? 'the one target a control' : `all ${countOf(pending.targets, 'target')} controls`}: nothing will be left to label, and every label given counts only as a control answer, never in progress, agreement, cost or judge figures.`
              : `This marks ${countOf(pending.added, 'more target', 'more targets')} as controls (${pending.controls} in all); ${toLabelWords(pending)}. Controls are left out of progress, agreement, cost and judge figures.`}
          </p>
          <button
            type="button"
            className="primary"
            onClick={() => void run({ allGold: true, everyTarget: pending.toLabel === 0 })}
          >
            {pending.toLabel === 0 ? 'Make every target a control' : `Mark ${pending.added} as controls`}
          </button>{' '}
          <button type="button" onClick={() => setPending(null)}>
            Cancel
          </button>
        </div>
      )}
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
      {count > 0 && (
        <button type="button" className="danger" onClick={() => void clearAll()}>
          Unmark every control (their labels stay)
        </button>
      )}
    </section>
  )
}
