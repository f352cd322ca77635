import type { ReactNode } from 'react'
import { Modal } from '../../components/Modal'
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
    <Modal className="exchange" labelledBy={id} onClose={onClose}>
      <header className="modal-head">
        <h2 id={id}>{title}</h2>
        <button type="button" className="ghost" onClick={onClose} aria-label="Close">
          ×
        </button>
      </header>
      {children}
    </Modal>
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

/**
 * Cancel beside the dialog's one action, which says what it is doing while it runs. Closing the
 * dialog does not stop work already sent, so while busy that button is "Close", or absent where
 * the dialog shows its own stop (an export's "Cancel export").
 */
export function ActionFooter(props: {
  onClose(): void
  onRun(): void
  busy: boolean
  label: string
  busyLabel: string
  /** Besides while busy: e.g. until a file is chosen. */
  disabled?: boolean
  /** The dialog shows its own way to stop the work while it runs. */
  stopShownWhileBusy?: boolean
}) {
  const closeButton = !props.busy ? 'Cancel' : props.stopShownWhileBusy ? null : 'Close'
  return (
    <footer className="modal-foot">
      {closeButton && (
        <button type="button" onClick={props.onClose}>
          {closeButton}
        </button>
      )}
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

/**
 * Where a file goes. In browser mode the server's disk is not necessarily this computer's, so the
 * download comes first and a path on the server's machine is offered under it; the desktop app
 * writes to a path on this computer.
 */
export function SaveTarget(props: {
  browser: boolean
  onClose(): void
  /** Said above the reason when nothing was written. */
  refusal: string
  failure: string | null
  download: { run(): void; busy: boolean; label: string; busyLabel: string }
  save: { run(): void; busy: boolean; label: string; busyLabel: string }
  path: { id: string; label: string; value: string; onChange(value: string): void }
  /** What the path may be, on the server's machine and on this computer. */
  hints?: { server: string; desktop: string }
  /** The summary over the server path and its button's label, e.g. "Write to this folder". */
  server: { summary: string; button: string }
  /** The dialog shows its own way to stop the work while it runs (ActionFooter). */
  stopShownWhileBusy?: boolean
}) {
  const { download, save, path } = props
  const failure = props.failure && <Refusal headline={props.refusal} text={props.failure} />
  if (!props.browser)
    return (
      <>
        <PathField {...path} hint={props.hints?.desktop} />
        {failure}
        <ActionFooter
          onClose={props.onClose}
          onRun={save.run}
          busy={save.busy}
          label={save.label}
          busyLabel={save.busyLabel}
          stopShownWhileBusy={props.stopShownWhileBusy}
        />
      </>
    )
  return (
    <>
      {failure}
      <ActionFooter
        onClose={props.onClose}
        onRun={download.run}
        busy={download.busy || save.busy}
        label={download.label}
        // Either destination keeps the footer busy; it names the one under way.
        busyLabel={save.busy ? save.busyLabel : download.busyLabel}
        stopShownWhileBusy={props.stopShownWhileBusy}
      />
      <details className="export-server">
        <summary>{props.server.summary}</summary>
        <PathField {...path} hint={props.hints?.server} />
        <button type="button" onClick={save.run} disabled={save.busy || download.busy}>
          {save.busy ? save.busyLabel : props.server.button}
        </button>
      </details>
    </>
  )
}
