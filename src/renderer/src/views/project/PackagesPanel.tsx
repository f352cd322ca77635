import { useRef, useState } from 'react'
import type { Plan } from '../../../../shared/contract/projects'
import { describeRefresh } from '../../../../shared/packageRefresh'
import { countOf } from '../../../../shared/plural'
import { api } from '../../api'
import { sourceOf } from '../../fileSource'

/** The lead writes one annotator's work package (beside the workspace, in exports/). */
export function PackageWriter({ plan, onWritten }: { plan: Plan; onWritten(): void }) {
  const [who, setWho] = useState(plan.annotators[0]?.name ?? '')
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null)
  const write = async () => {
    try {
      const r = await api('projects.exportPackage', { datasetId: plan.datasetId, annotator: who })
      setMessage({
        ok: true,
        text: `Wrote ${r.annotator}'s package (${r.assignedItems} of ${r.items} items) to ${r.file}`,
      })
      onWritten()
    } catch (e) {
      setMessage({ ok: false, text: e instanceof Error ? e.message : String(e) })
    }
  }
  return (
    <div className="package-writer">
      <label>
        Package for{' '}
        <input
          list="plan-annotators"
          value={who}
          onChange={(e) => setWho(e.target.value)}
          aria-label="Package for"
        />
      </label>
      <datalist id="plan-annotators">
        {plan.annotators.map((a) => (
          <option key={a.annotatorId} value={a.name} />
        ))}
      </datalist>{' '}
      <button type="button" disabled={!who.trim()} onClick={() => void write()}>
        Write package
      </button>
      {message && <p className={message.ok ? 'muted' : 'error-box'}>{message.text}</p>}
    </div>
  )
}

/** An annotator's laptop opens the package it was given (Datasets screen, fresh workspace). */
export function PackageOpener({ onOpened }: { onOpened(): void }) {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null)
  const input = useRef<HTMLInputElement>(null)
  const open = async (file: File) => {
    try {
      const r = await api('projects.openPackage', { source: await sourceOf(file) })
      setMessage({
        ok: true,
        text: r.alreadyOpen
          ? `This package is already open here (dataset "${r.dataset}"): nothing changed.`
          : r.refreshed
            ? `Updated "${r.dataset}" from ${r.annotator}'s newer package: ${describeRefresh(r.refreshed)}. Every label ${r.annotator} made is kept.`
            : `Opened ${r.annotator}'s package: dataset "${r.dataset}" with ${countOf(r.items, 'item')}. Label as ${r.annotator}.`,
      })
      onOpened()
    } catch (e) {
      setMessage({ ok: false, text: e instanceof Error ? e.message : String(e) })
    }
  }
  return (
    <div className="package-opener">
      {/* A button like its neighbours; the file input stays in the page for assistive tech. */}
      <button type="button" onClick={() => input.current?.click()}>
        Open a work package…
      </button>
      <input
        ref={input}
        className="visually-hidden"
        type="file"
        accept=".jsonl,.json"
        aria-label="Open a work package"
        tabIndex={-1}
        onChange={(e) => {
          const f = e.target.files?.[0]
          if (f) void open(f)
          e.target.value = ''
        }}
      />
      {message && (
        <p role="status" className={message.ok ? 'package-message muted' : 'package-message error-box'}>
          {message.text}
        </p>
      )}
    </div>
  )
}
