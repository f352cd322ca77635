import { forwardRef, type ReactNode } from 'react'
import type { Pane } from '../../../../shared/domain'

interface Props {
  pane: Pane
  title: string
  text: string
  /** Tabs or other controls shown in the pane's header. */
  children?: ReactNode
  scrollRef: React.Ref<HTMLDivElement>
  /** What the pane holds, for the header badge: "judged against" marks where evidence is. */
  badge?: string
}

/**
 * One scrolling text. The text is a single text node (React renders a plain string as one), so
 * character offsets map straight onto DOM ranges for highlights and selections.
 */
export const TextPane = forwardRef<HTMLDivElement, Props>(function TextPane(
  { pane, title, text, children, scrollRef, badge },
  textRef,
) {
  const words = text.trim() === '' ? 0 : text.trim().split(/\s+/).length
  return (
    <section className={`pane pane-${pane}`} aria-label={title}>
      <header className="pane-head">
        <h2>{title}</h2>
        {children}
        <span className="pane-meta">
          {badge && <span className="chip accent">{badge}</span>}
          {words.toLocaleString()} words
        </span>
      </header>
      <div className="pane-scroll" ref={scrollRef}>
        <div className="pane-text" ref={textRef} data-pane={pane}>
          {text}
        </div>
      </div>
    </section>
  )
})
