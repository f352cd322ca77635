import { useRef, useState } from 'react'
import type { Dashboard, Plan } from '../../../../shared/contract/projects'
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
        text: `Wrote ${r.annotator}'s package (${r.assignedItems} of ${countOf(r.items, 'item')}) to ${r.file}`,
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

/** The packages handed out and the writer of a new one; on a laptop, why there is none to write. */
export function PackagesCard({ d, onChanged }: { d: Dashboard; onChanged(): void }) {
  const owner = d.plan.fromPackage
  if (owner)
    return (
      <section className="card" aria-label="Packages">
        <h2>Packages</h2>
        {/* A laptop's share came in a package: handing out another is the lead's, as the plan is. */}
        <p className="notice-box" data-testid="laptop-packages">
          Packages are written in the lead's workspace; this one holds {owner.annotator}'s work. To send{' '}
          {owner.annotator}'s labels back, use “Bundle my labels” on the Datasets screen.
        </p>
      </section>
    )
  return (
    <section className="card" aria-label="Packages">
      <h2>Packages</h2>
      <PackageWriter plan={d.plan} onWritten={onChanged} />
      {d.packages.length === 0 ? (
        <p className="muted">No package handed out yet (CLI: factlab package).</p>
      ) : (
        <table className="data-table" aria-label="Packages">
          <thead>
            <tr>
              <th>Annotator</th>
              <th>Version</th>
              <th>Targets</th>
              <th>Out</th>
              <th>Back</th>
              <th>Labels back</th>
            </tr>
          </thead>
          <tbody>
            {d.packages.map((p) => (
              <tr key={p.id} className={p.replacedBy === null ? undefined : 'muted'}>
                <td>{p.annotator}</td>
                <td>v{p.version}</td>
                <td>{p.targets}</td>
                <td>{p.createdAt.slice(0, 16).replace('T', ' ')}</td>
                <td>
                  {[
                    p.returnedAt ? p.returnedAt.slice(0, 16).replace('T', ' ') : null,
                    p.replacedBy !== null ? `replaced by v${p.replacedBy}` : null,
                  ]
                    .filter((x) => x !== null)
                    .join(' · ') || 'not yet'}
                </td>
                <td>{p.labelsBack}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
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
