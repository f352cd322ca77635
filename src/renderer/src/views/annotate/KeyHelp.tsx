import { type VerdictKey, verdictText } from '../../actions/keymap'

/** The keyboard at a glance, always visible under the unit list. */
export function KeyHelp({ keys }: { keys: VerdictKey[] }) {
  return (
    <footer className="key-help">
      {keys
        .filter((k) => k.key)
        .slice(0, 6)
        .map((k) => (
          <span key={k.verdict}>
            <kbd>{k.key}</kbd> {verdictText(k.verdict)}
          </span>
        ))}
      <span>
        <kbd>j</kbd>/<kbd>k</kbd> move
      </span>
      <span>
        <kbd>Enter</kbd> next unlabelled
      </span>
      <span>
        <kbd>u</kbd> undo
      </span>
      <span>
        <kbd>e</kbd> selection as evidence
      </span>
      <span>
        <kbd>n</kbd> note
      </span>
      <span>
        <kbd>v</kbd> variant
      </span>
      <span>
        <kbd>[</kbd>/<kbd>]</kbd> item
      </span>
    </footer>
  )
}
