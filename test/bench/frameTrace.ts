/**
 * Where a label's frame goes, read from a Chrome trace (CDP Tracing) of a few key presses: the
 * key's task (its handler, React's render and commit, the effects), style and layout, painting
 * and the commit to the compositor, and the rest (waiting for the display's next frame, other
 * tasks). The parsing is pure, so it is tested on its own; `traceOf` records in a page.
 */
import type { Page } from 'playwright-core'

export interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  pid: number
  tid: number
  args?: { data?: { type?: string }; name?: string }
}

/** Milliseconds per labelled key press, one entry per press. */
export interface FrameBreakdown {
  script: number[]
  styleLayout: number[]
  paint: number[]
  rest: number[]
}

/** The mark the page sets in its key listener, so a label's key is told from Enter. */
export const LABEL_MARK = 'factlab-label-key'

const STYLE_LAYOUT = new Set(['UpdateLayoutTree', 'Layout'])
const PAINT = new Set(['PrePaint', 'Paint', 'Layerize', 'Commit'])

const end = (e: TraceEvent) => e.ts + (e.dur ?? 0)

/** Events of one name that lie inside another of the same name are counted once, by the outer. */
function outermost(events: TraceEvent[]): TraceEvent[] {
  const out: TraceEvent[] = []
  for (const e of events) {
    const outer = out.findLast((o) => o.name === e.name)
    if (outer && e.ts >= outer.ts && end(e) <= end(outer)) continue
    out.push(e)
  }
  return out
}

/**
 * For each key press carrying the label mark: from the key's dispatch to the end of the first
 * compositor commit after it (the frame that shows the label).
 */
export function frameBreakdown(trace: readonly TraceEvent[]): FrameBreakdown {
  const keys = labelKeys(trace)
  const out: FrameBreakdown = { script: [], styleLayout: [], paint: [], rest: [] }
  for (const key of keys) {
    const thread = trace
      .filter((e) => e.ph === 'X' && e.pid === key.pid && e.tid === key.tid && e.ts >= key.ts)
      .sort((a, b) => a.ts - b.ts)
    const firstPaint = thread.find((e) => e.name === 'Paint' && e.ts >= end(key))
    const commit = firstPaint && thread.find((e) => e.name === 'Commit' && e.ts >= firstPaint.ts)
    if (!commit) continue
    const inFrame = outermost(thread.filter((e) => end(e) <= end(commit)))
    const ms = (list: TraceEvent[]) => list.reduce((s, e) => s + (e.dur ?? 0), 0) / 1000
    const styleLayout = inFrame.filter((e) => STYLE_LAYOUT.has(e.name))
    const withinKey = styleLayout.filter((e) => end(e) <= end(key))
    const script = (key.dur ?? 0) / 1000 - ms(withinKey)
    const paint = ms(inFrame.filter((e) => PAINT.has(e.name) && e.ts >= end(key)))
    const total = (end(commit) - key.ts) / 1000
    out.script.push(script)
    out.styleLayout.push(ms(styleLayout))
    out.paint.push(paint)
    out.rest.push(Math.max(0, total - script - ms(styleLayout) - paint))
  }
  return out
}

/** The dispatches of the key presses carrying the label mark, in the trace's order. */
export function labelKeys(trace: readonly TraceEvent[]): TraceEvent[] {
  const marks = trace.filter((e) => e.name === LABEL_MARK)
  return trace.filter(
    (e) =>
      e.name === 'EventDispatch' &&
      e.ph === 'X' &&
      e.args?.data?.type === 'keydown' &&
      marks.some((m) => m.ts >= e.ts && m.ts <= end(e)),
  )
}

/** Runs `presses` with the page traced (the timeline, and any `more` categories) and returns the trace's events. */
export async function traceOf(
  page: Page,
  presses: () => Promise<void>,
  more: readonly string[] = [],
): Promise<TraceEvent[]> {
  const cdp = await page.context().newCDPSession(page)
  const events: TraceEvent[] = []
  cdp.on('Tracing.dataCollected', (d) => events.push(...(d.value as unknown as TraceEvent[])))
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      includedCategories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'blink.user_timing',
        ...more,
      ],
    },
  })
  await presses()
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()))
  await cdp.send('Tracing.end')
  await complete
  await cdp.detach()
  return events
}
