import { useState } from 'react'
import { api } from '../../api'

/** "targetId,verdict" lines (CSV or TSV; a header line is skipped). */
export function parseControlLines(text: string): { targetId: number; verdict: string }[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => /^\d+\s*[,\t;]/.test(l))
    .map((l) => {
      const [id, verdict = ''] = l.split(/\s*[,\t;]\s*/)
      return { targetId: Number(id), verdict: verdict.trim() }
    })
}

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
  const run = async (input: { allGold?: boolean; answers?: { targetId: number; verdict: string }[] }) => {
    try {
      const r = await api('projects.setControls', { datasetId, ...input })
      setMessage(
        input.allGold && r.controls === 0
          ? {
              ok: false,
              text: 'No target has adjudicated or imported gold yet. Decide disputes in the Agreement view, or paste known answers below. (Majority votes are not used: a control must not come from the people it checks.)',
            }
          : { ok: true, text: `${r.added} marked; ${r.controls} controls in all.` },
      )
      setText('')
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
        Use every adjudicated or imported gold answer
      </button>
      <textarea
        aria-label="Control answers"
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="targetId,verdict — one per line (or load a CSV)"
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
      <button
        type="button"
        disabled={parseControlLines(text).length === 0}
        onClick={() => void run({ answers: parseControlLines(text) })}
      >
        Mark these as controls
      </button>
      {message && <p className={message.ok ? 'muted' : 'error-box'}>{message.text}</p>}
    </section>
  )
}
