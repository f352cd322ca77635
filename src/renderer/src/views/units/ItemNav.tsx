import { useState } from 'react'
import type { UnitEntry, UnitsPage } from '../../../../shared/contract/units'
import { countOf } from '../../../../shared/plural'

function GoTo({ total, onGo }: { total: number; onGo(index: number): void }) {
  const [value, setValue] = useState('')
  return (
    <form
      className="units-goto"
      onSubmit={(e) => {
        e.preventDefault()
        const n = Number(value)
        if (Number.isInteger(n) && n >= 1 && n <= total) onGo(n - 1)
        setValue('')
      }}
    >
      <input
        type="number"
        min={1}
        max={total}
        aria-label="Go to item number"
        placeholder="Go to #"
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
    </form>
  )
}

/** Moving between the items of the dataset, and the keys the review understands. */
export function ItemNav(props: {
  page: UnitsPage
  onItem(itemId: number | null): void
  onIndex(index: number): void
}) {
  const { page } = props
  return (
    <div className="units-header">
      <button type="button" disabled={page.prevItemId === null} onClick={() => props.onItem(page.prevItemId)}>
        ← Previous item
      </button>
      <h2>
        Item {page.index + 1} of {page.total} <span className="units-ext">{page.item?.extId}</span>
      </h2>
      <button type="button" disabled={page.nextItemId === null} onClick={() => props.onItem(page.nextItemId)}>
        Next item →
      </button>
      <GoTo total={page.total} onGo={props.onIndex} />
      <span className="units-keys">
        j/k move · e edit · s split · x delete · m mark for merge · Alt+↑/↓ reorder · h history · [ ] item
      </span>
    </div>
  )
}

/** Deleted units of the item: their labels are kept, and they can come back. */
export function DeletedUnits(props: { units: UnitEntry[]; onRestore(u: UnitEntry): void }) {
  if (props.units.length === 0) return null
  return (
    <details className="units-deleted">
      <summary>Deleted units ({props.units.length})</summary>
      <ul>
        {props.units.map((u) => (
          <li key={u.id}>
            <span className="units-text">{u.text}</span>
            {u.labels > 0 && <span className="units-badge">{countOf(u.labels, 'label')} kept</span>}
            <button type="button" className="tiny" onClick={() => props.onRestore(u)}>
              Restore
            </button>
          </li>
        ))}
      </ul>
    </details>
  )
}
