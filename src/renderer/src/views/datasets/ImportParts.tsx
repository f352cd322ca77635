import type { ImportPreview, ImportReport } from '../../../../shared/contract/datasets'
import { groupWarnings } from '../../../../shared/importWarnings'
import { countOf } from '../../../../shared/plural'
import { useFocusOnMount } from '../../hooks'

function cell(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v)
  return s === undefined ? '' : s.length > 140 ? `${s.slice(0, 140)}…` : s
}

/** A picked file's size as people read it. */
export function sizeText(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`
}

export function PreviewTable({ preview, failed }: { preview: ImportPreview | null; failed: boolean }) {
  if (!preview)
    return (
      <div className="preview muted">
        {failed ? 'No preview: see the message above.' : 'Reading the first rows…'}
      </div>
    )
  return (
    <section className="preview" aria-label="Preview of the first rows">
      <table aria-label="First rows of the file">
        <thead>
          <tr>
            {preview.columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {preview.rows.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no identity
            <tr key={i}>
              {preview.columns.map((c) => (
                <td key={c}>{cell(r[c])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

/** What the import kept but the person should look at, worded as the CLI words it. */
function ImportWarnings({ report }: { report: ImportReport }) {
  const groups = groupWarnings(report.warnings)
  if (!groups.length) return null
  return (
    <section className="notice-box" aria-label="Import warnings">
      {groups.map((g) => (
        <div key={g.kind}>
          <p>
            <strong>{g.heading}:</strong>
          </p>
          <ul className="skipped">
            {g.lines.map((line, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: two warnings may read the same
              <li key={i}>{line}</li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  )
}

export function ImportDone({ report, onOpen }: { report: ImportReport; onOpen(): void }) {
  const openRef = useFocusOnMount<HTMLButtonElement>()
  return (
    <div className="import-done">
      <p className="success-text">
        Imported “{report.dataset}”: {countOf(report.items, 'item')}, {countOf(report.candidates, 'answer')},{' '}
        {countOf(report.units, 'unit')}
        {report.labels > 0 &&
          `, ${countOf(report.labels, 'label')} from ${countOf(report.annotators, 'annotator or source', 'annotators or sources')}`}
        .
      </p>
      {report.files && (
        <ul className="skipped" aria-label="Files and their variants">
          {report.files.map((f) => (
            <li key={f.file}>
              {f.file} → variant “{f.variant}” ({countOf(f.rows, 'row')})
            </li>
          ))}
        </ul>
      )}
      {report.skipped.length > 0 && (
        <details open>
          <summary>{countOf(report.skipped.length, 'row was', 'rows were')} skipped</summary>
          <ul className="skipped">
            {report.skipped.map((s) => (
              <li key={`${s.file ?? ''}:${s.line}`}>
                {s.file ? `${s.file}, ` : ''}
                {s.at}: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      <ImportWarnings report={report} />
      <footer className="modal-foot">
        <button type="button" className="primary" onClick={onOpen} ref={openRef}>
          Open the dataset
        </button>
      </footer>
    </div>
  )
}
