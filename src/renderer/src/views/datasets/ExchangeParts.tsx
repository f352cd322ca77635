import type { ReactNode } from 'react'
import { useEscape } from '../../components/useEscape'
import './exchange.css'

export const message = (e: unknown) => (e instanceof Error ? e.message : String(e))

/** The dialog frame shared by export, bundle and merge, in the import wizard's look. */
export function Dialog({
  id,
  title,
  onClose,
  children,
}: {
  id: string
  title: string
  onClose(): void
  children: ReactNode
}) {
  useEscape(onClose)
  return (
    <div className="modal-backdrop">
      <section className="modal exchange" role="dialog" aria-modal="true" aria-labelledby={id}>
        <header className="modal-head">
          <h2 id={id}>{title}</h2>
          <button type="button" className="ghost" onClick={onClose} aria-label="Close">
            ×
          </button>
        </header>
        {children}
      </section>
    </div>
  )
}

/** Paths are shown whole and selectable: the person copies them into a file manager or a mail. */
export function WrittenFiles({ title, files }: { title: string; files: string[] }) {
  return (
    <div className="written" role="status">
      <p className="success-text">{title}</p>
      <ul aria-label="Written files">
        {files.map((f) => (
          <li key={f}>
            <code>{f}</code>
          </li>
        ))}
      </ul>
    </div>
  )
}

export function Refusal({ headline, text }: { headline: string; text: string }) {
  return (
    <div className="error-box" role="alert">
      <strong>{headline}</strong>
      <pre>{text}</pre>
    </div>
  )
}

export function DoneFooter({ onClose }: { onClose(): void }) {
  return (
    <footer className="modal-foot">
      <button type="button" className="primary" onClick={onClose}>
        Done
      </button>
    </footer>
  )
}

/** Cancel beside the dialog's one action, which says what it is doing while it runs. */
export function ActionFooter(props: {
  onClose(): void
  onRun(): void
  busy: boolean
  label: string
  busyLabel: string
  /** Besides while busy: e.g. until a file is chosen. */
  disabled?: boolean
}) {
  return (
    <footer className="modal-foot">
      <button type="button" onClick={props.onClose}>
        Cancel
      </button>
      <button type="button" className="primary" disabled={props.busy || props.disabled} onClick={props.onRun}>
        {props.busy ? props.busyLabel : props.label}
      </button>
    </footer>
  )
}

/** A path on the person's own computer, shown in full and editable. */
export function PathField(props: {
  id: string
  label: string
  value: string
  onChange(value: string): void
  hint?: ReactNode
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        className="mono"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        spellCheck={false}
      />
      {props.hint && <p className="muted small">{props.hint}</p>}
    </div>
  )
}
