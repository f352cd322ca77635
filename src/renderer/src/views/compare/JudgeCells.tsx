import type { ReactNode } from 'react'
import { type Figures, fmtPctCi } from '../../../../shared/contract/metrics'
import { NO_RATE_TITLE, NO_TIME_RECORDED, NO_TIME_TITLE } from '../../../../shared/humanCost'
import { NO_PRICE, NO_PRICE_TITLE } from '../../../../shared/runNames'
import { rateNote, withCiMark } from '../../../../shared/smallSample'

export const FROM_CACHE_TITLE =
  'Every answer was a reply reused from an earlier run for an identical request: no call was sent and nothing was paid, so this is not what the method costs'

/** A rate with its interval, the interval's method when it is not the bootstrap (as `metrics` prints it), and the small-sample mark. */
export function RateCell({
  value,
  ci,
  method,
  n,
  metric,
  children,
}: {
  value: number | null
  ci: [number, number] | null
  method: Figures['errorRateCiMethod']
  n: number
  /** Names the figure's own line (without the mark) for tests and copying. */
  metric?: string
  /** Figures folded under this one (accuracy under the error rate): the mark comes after them, covering both. */
  children?: ReactNode
}) {
  const note = value === null ? '' : rateNote(n)
  return (
    <>
      <div data-metric={metric}>
        <Stacked text={withCiMark(fmtPctCi(value, ci), ci, method)} />
      </div>
      {children}
      {note ? <div className="cmp-small">{note}</div> : null}
    </>
  )
}

/**
 * What stands where a person has no cost: why (no time recorded, no rate), as the project
 * dashboard says it, rather than a bare dash that reads as "free" or "missing".
 */
export function CostGap({ gap }: { gap: string | null | undefined }) {
  if (!gap) return <>—</>
  return (
    <span className="muted small" title={gap === NO_TIME_RECORDED ? NO_TIME_TITLE : NO_RATE_TITLE}>
      {gap}
    </span>
  )
}

/** A judge's cost where no price is known: a dash and why, never $0. */
export function NoPrice() {
  return (
    <span className="muted small" title={NO_PRICE_TITLE}>
      — {NO_PRICE}
    </span>
  )
}

/**
 * A figure with its interval under it ("24.7% [18.4–31.0%]" on two lines), so the table fits a
 * 1280 px window; the text stays one string for copying and reading aloud.
 */
function Stacked({ text }: { text: string }) {
  const at = text.indexOf(' [')
  if (at < 0) return <>{text}</>
  return (
    <>
      {text.slice(0, at)} <span className="cmp-ci">{text.slice(at + 1)}</span>
    </>
  )
}
