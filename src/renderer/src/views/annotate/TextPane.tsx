import { forwardRef, memo, type ReactNode, useMemo } from 'react'
import type { Pane } from '../../../../shared/domain'
import { hasReference, NO_REFERENCE, NO_REFERENCE_HINT } from '../../../../shared/noReference'
import { countOf } from '../../../../shared/plural'
import { caretIntoPane, paneCaretKey } from './paneCaret'

interface Props {
  pane: Pane
  title: string
  text: string
  /** Tabs or other controls shown in the pane's header. */
  children?: ReactNode
  scrollRef: React.Ref<HTMLDivElement>
  /** The focused unit is judged against this text: the pane is marked so the eye goes there. */
  against?: boolean
  /** Controls at the end of the header (the diff switch, "identical to the reference"). */
  extra?: ReactNode
}

/**
 * One scrolling text. The text is a single text node (React renders a plain string as one), so
 * character offsets map straight onto DOM ranges for highlights and selections.
 */
export const TextPane = memo(
  forwardRef<HTMLDivElement, Props>(function TextPane(
    { pane, title, text, children, scrollRef, against, extra },
    textRef,
  ) {
    // Counting and formatting a long article's words is not free: only when its text changes.
    const words = useMemo(() => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length), [text])
    return (
      <section className={`pane pane-${pane}${against ? ' against' : ''}`} aria-label={title}>
        <header
          className="pane-head"
          title={`${countOf(words, 'word')}${against ? ' · the focused unit is judged against this text' : ''}`}
        >
          {children ?? <h2>{title}</h2>}
          {/* With variant tabs the header is full; the word count moves to a tooltip. */}
          {children ? null : <span className="pane-meta">{words} words</span>}
          {extra}
        </header>
        <div className="pane-scroll" ref={scrollRef}>
          {pane === 'reference' && !hasReference(text) && (
            <p className="muted pane-empty" data-testid="no-reference" title={NO_REFERENCE_HINT}>
              {NO_REFERENCE}
            </p>
          )}
          {/* Focusable so evidence can be selected by keyboard: arrows, Shift+arrows, then e. */}
          <div
            className="pane-text"
            ref={textRef}
            data-pane={pane}
            role="document"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the text is where a keyboard selection starts
            tabIndex={0}
            aria-label={`${title} text: Shift and the arrows select, e attaches the selection as evidence`}
            onFocus={(e) => caretIntoPane(e.currentTarget)}
            onKeyDown={(e) => {
              // Clicked into (a mouse selection), the arrows keep moving through the units.
              if (!e.currentTarget.matches(':focus-visible')) return
              if (!paneCaretKey(e, e.currentTarget)) return
              e.preventDefault()
              // The arrows here move the caret, not the focused unit.
              e.stopPropagation()
            }}
          >
            {text}
          </div>
        </div>
      </section>
    )
  }),
)
