import type { ReactNode } from 'react'
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
  return (
    <div className="modal-backdrop">
      <section
        className="modal exchange"
        role="dialog"
        aria-modal="true"
        aria-labelledby={id}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onClose()
        }}
      >
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
