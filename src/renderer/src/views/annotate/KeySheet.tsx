import { type KeyRow, sheetLines } from '../../actions/keys'
import { useEscape } from '../../components/useEscape'
import { useFocusOnMount } from '../../hooks'
import { Keys } from './KeyHelp'

/** Every key of the workbench and what it does, built from the actions; Escape closes it. */
export function KeySheet({ rows, onClose }: { rows: readonly KeyRow[]; onClose(): void }) {
  const ref = useFocusOnMount<HTMLElement>()
  useEscape(onClose)
  return (
    <div className="modal-backdrop">
      <section
        ref={ref}
        tabIndex={-1}
        className="modal key-sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby="key-sheet-title"
      >
        <header className="modal-head">
          <h2 id="key-sheet-title">Keyboard</h2>
          <button type="button" className="ghost" onClick={onClose} aria-label="Close">
            ×
          </button>
        </header>
        <table>
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
      </section>
    </div>
  )
}
