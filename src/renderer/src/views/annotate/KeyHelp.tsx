import { Fragment, memo } from 'react'
import { footerHints, type KeyRow, keyName } from '../../actions/keys'

export const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

/** Keys joined as "j/k". */
export function Keys({ keys }: { keys: readonly string[] }) {
  return (
    <>
      {keys.map((k, i) => (
        <Fragment key={k}>
          {i > 0 && '/'}
          <kbd>{keyName(k, MAC)}</kbd>
        </Fragment>
      ))}
    </>
  )
}

/**
 * The keyboard at a glance, always visible under the unit list; `?` opens the whole list.
 * Memoised: the rows follow the dataset's schema, not the labels, so a key press skips it.
 */
export const KeyHelp = memo(function KeyHelp({ rows }: { rows: readonly KeyRow[] }) {
  return (
    <footer className="key-help">
      {footerHints(rows).map((h) => (
        <span key={`${h.keys.join()}-${h.hint}`}>
          <Keys keys={h.keys} /> {h.hint}
        </span>
      ))}
    </footer>
  )
})
