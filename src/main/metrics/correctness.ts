import { type SpanColumns, ST_OK } from './load'
import type { CorrectnessBits } from './stats/mcnemar'

/**
 * A run's correctness against gold as bit sets (`correctnessBits` of its per-target 1 right,
 * 0 wrong, −1 not judged), set straight from the targets it reached (its span columns): outside
 * them it judged none.
 * Each word is gathered in a local and stored once: or-ing bits into a Uint32Array element by
 * element reads back values past 2^31, which V8 handles as doubles, about four times slower.
 */
export function correctness(run: SpanColumns, gold: Int8Array): CorrectnessBits {
  const words = Math.ceil(gold.length / 32)
  const judged = new Uint32Array(words)
  const right = new Uint32Array(words)
  const { status, bin, from, to } = run
  for (let w = from >>> 5; from < to && w <= (to - 1) >>> 5; w++) {
    let j = 0
    let r = 0
    const end = Math.min(to, (w + 1) * 32)
    for (let i = Math.max(from, w * 32); i < end; i++) {
      const b = bin[i - from]!
      const g = gold[i]!
      if (status[i - from] === ST_OK && g >= 0 && b >= 0) {
        j |= 1 << (i & 31)
        if (b === g) r |= 1 << (i & 31)
      }
    }
    judged[w] = j
    right[w] = r
  }
  return { judged, right }
}

/** The words of two runs' correctness bits where both may have judged a target: where their spans meet. */
export function sharedWords([fa, ta]: [number, number], [fb, tb]: [number, number]): [number, number] {
  const from = Math.max(fa, fb)
  const to = Math.min(ta, tb)
  return from < to ? [from >>> 5, ((to - 1) >>> 5) + 1] : [0, 0]
}
