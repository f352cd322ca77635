import { type KeyRow, sheetLines } from '../../actions/keys'
import { Modal } from '../../components/Modal'
import { Keys } from './KeyHelp'

/** Every key of the workbench and what it does, built from the actions; Escape closes it. */
export function KeySheet({ rows, onClose }: { rows: readonly KeyRow[]; onClose(): void }) {
  return (
    <Modal className="key-sheet" labelledBy="key-sheet-title" onClose={onClose}>
      <header className="modal-head">
        <h2 id="key-sheet-title">Keyboard</h2>
        <button type="button" className="ghost" onClick={onClose} aria-label="Close">
          ×
        </button>
      </header>
      <table aria-label="Keys">
        <tbody>
          {sheetLines(rows).map((l) => (
            <tr key={l.label}>
              <td>{l.label}</td>
              <td>
                <Keys keys={l.keys} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Modal>
  )
}
