import { useEffect, useRef } from 'react'
import { TabProgress } from './StatusBits'

interface Props {
  candidates: readonly { id: number; variant: string }[]
  activeId: number | undefined
  progressOf(id: number): { done: number; total: number }
  onCandidate(id: number): void
}

/**
 * The answer variants as tabs. When they do not all fit, the one being labelled is scrolled into
 * sight whenever it changes (the v key, or the view moving on to the next variant with work):
 * otherwise the pane could show an answer whose tab is off the edge.
 */
export function VariantTabs({ candidates, activeId, progressOf, onCandidate }: Props) {
  const list = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const box = list.current
    const tab = box?.querySelector<HTMLElement>('[aria-selected="true"]')
    if (!box || !tab || box.scrollWidth <= box.clientWidth || activeId === undefined) return
    // Clear of the edge shade (annotate.css, .tabs), so the tab reads whole.
    const margin = 24
    const outer = box.getBoundingClientRect()
    const inner = tab.getBoundingClientRect()
    if (inner.left < outer.left + margin) box.scrollLeft -= outer.left + margin - inner.left
    else if (inner.right > outer.right - margin) box.scrollLeft += inner.right - (outer.right - margin)
  }, [activeId])
  return (
    <div className="tabs" role="tablist" aria-label="Answer variant" ref={list}>
      {candidates.map((c) => {
        const progress = progressOf(c.id)
        return (
          <button
            key={c.id}
            type="button"
            role="tab"
            tabIndex={-1}
            aria-selected={c.id === activeId}
            className={c.id === activeId ? 'tab active' : 'tab'}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onCandidate(c.id)}
          >
            {c.variant}
            <TabProgress done={progress.done} total={progress.total} />
          </button>
        )
      })}
    </div>
  )
}
