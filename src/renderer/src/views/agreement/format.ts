/** How agreement figures read on screen; null is a figure the data cannot define. */

export const NOT_DEFINED = 'not defined'

export function formatFigure(value: number | null, digits = 2): string {
  return value === null || !Number.isFinite(value) ? NOT_DEFINED : value.toFixed(digits)
}

export function formatPercent(value: number | null): string {
  return value === null || !Number.isFinite(value) ? NOT_DEFINED : `${(value * 100).toFixed(1)}%`
}

export interface Mark {
  start: number
  end: number
  /** Which annotator (column) pointed at this span. */
  owner: number
}

export interface Segment {
  text: string
  start: number
  owners: number[]
}

/**
 * Cuts a text at every span edge so each piece has a fixed set of annotators pointing at it;
 * spans outside the text are clipped, so a stale offset cannot break the view.
 */
export function segmentText(text: string, marks: readonly Mark[]): Segment[] {
  const clipped = marks
    .map((m) => ({
      ...m,
      start: Math.max(0, Math.min(m.start, text.length)),
      end: Math.min(m.end, text.length),
    }))
    .filter((m) => m.end > m.start)
  const cuts = new Set([0, text.length])
  for (const m of clipped) {
    cuts.add(m.start)
    cuts.add(m.end)
  }
  const points = [...cuts].sort((a, b) => a - b)
  const out: Segment[] = []
  for (let i = 0; i + 1 < points.length; i++) {
    const start = points[i]!
    const end = points[i + 1]!
    const owners = [
      ...new Set(clipped.filter((m) => m.start <= start && m.end >= end).map((m) => m.owner)),
    ].sort()
    const prev = out[out.length - 1]
    if (prev && prev.owners.join() === owners.join()) prev.text += text.slice(start, end)
    else out.push({ text: text.slice(start, end), start, owners })
  }
  return out
}
