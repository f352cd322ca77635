import { useRef, useState } from 'react'
import { Modal } from '../../components/Modal'

interface Props {
  unitText: string
  initial: string
  onSave(note: string): void
  onCancel(): void
}

/** A note on one unit: Ctrl/⌘+Enter saves, Escape leaves it unchanged. */
export function NoteDialog({ unitText, initial, onSave, onCancel }: Props) {
  const [text, setText] = useState(initial)
  const ref = useRef<HTMLTextAreaElement>(null)
  return (
    <Modal className="note-dialog" labelledBy="note-title" onClose={onCancel} focusRef={ref}>
      <h2 id="note-title">Note</h2>
      <p className="muted small unit-quote">{unitText}</p>
      <textarea
        aria-label="Note"
        value={text}
        ref={ref}
        rows={5}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) onSave(text)
        }}
      />
      <footer className="modal-foot">
        <span className="muted small">
          <kbd>Ctrl</kbd>+<kbd>Enter</kbd> to save · <kbd>Esc</kbd> to cancel
        </span>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={() => onSave(text)}>
          Save note
        </button>
      </footer>
    </Modal>
  )
}
