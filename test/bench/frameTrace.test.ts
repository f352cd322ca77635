import { describe, expect, it } from 'vitest'
import { frameBreakdown, LABEL_MARK, type TraceEvent } from './frameTrace'

const at = (name: string, ts: number, dur: number, type?: string): TraceEvent => ({
  name,
  ph: 'X',
  ts,
  dur,
  pid: 1,
  tid: 1,
  ...(type ? { args: { data: { type } } } : {}),
})
const mark = (ts: number): TraceEvent => ({ name: LABEL_MARK, ph: 'R', ts, pid: 1, tid: 1 })

describe("a label's frame read from a trace", () => {
  it('splits key to commit into the key task, style and layout, painting, and the wait', () => {
    // Times in microseconds: a key task of 3 ms with a 1 ms forced layout inside, a 0.5 ms
    // style pass in the frame, paint 0.8 ms (with a nested paint counted once), commit 0.7 ms.
    const trace = [
      at('EventDispatch', 0, 3000, 'keydown'),
      mark(10),
      at('Layout', 1500, 1000),
      at('EventDispatch', 3200, 100, 'keyup'),
      at('UpdateLayoutTree', 8000, 500),
      at('Paint', 9000, 800),
      at('Paint', 9100, 600),
      at('Commit', 10_000, 700),
      // A later frame is not this label's.
      at('Paint', 30_000, 5000),
      at('Commit', 36_000, 5000),
    ]
    const b = frameBreakdown(trace)
    expect(b.script).toEqual([2])
    expect(b.styleLayout).toEqual([1.5])
    expect(b.paint).toEqual([1.5])
    expect(b.rest[0]).toBeCloseTo(10.7 - 2 - 1.5 - 1.5)
  })

  it('leaves out keys that carry no label mark (Enter to the next item)', () => {
    const trace = [at('EventDispatch', 0, 3000, 'keydown'), at('Paint', 5000, 100), at('Commit', 5200, 100)]
    expect(frameBreakdown(trace).script).toEqual([])
  })
})
