/**
 * Lexical alignment: which passage of a long text a short unit (a fact, a triplet, a sentence)
 * most likely comes from, so the annotator's eye lands there. Pure and cheap: the text is split
 * once, each query is a token-overlap score per sentence.
 */

export interface Span {
  start: number
  end: number
}

export interface AlignedSpan extends Span {
  /** Share of the unit's distinct content tokens found in the passage, 0–1. */
  score: number
}

// Words so common that matching them says nothing about where a fact comes from.
const STOPWORDS = new Set(
  `a an the and or but if of to in on at by for with from as is are was were be been being it its this that
  these those he she they them his her their we you i not no do does did has have had which who whom what
  when where why how than then there here so such into over under about also can could would should may
  might will shall very more most other some any each only own same s t`.split(/\s+/),
)

/** Lower-cased word tokens without stopwords; numbers are kept (they anchor facts well). */
export function contentTokens(text: string): string[] {
  const out: string[] = []
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0]
    if (!STOPWORDS.has(w)) out.push(stem(w))
  }
  return out
}

// A crude plural/past stemmer: enough to match "founded" with "founder" is not the goal,
// only "companies"/"company" and "walked"/"walk" style pairs.
function stem(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2)
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1)
  return w
}

/** Sentence spans of a text, [start, end) with surrounding whitespace trimmed off. */
export function splitSentences(text: string): Span[] {
  const spans: Span[] = []
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' })
  for (const seg of segmenter.segment(text)) {
    let start = seg.index
    let end = seg.index + seg.segment.length
    while (start < end && /\s/.test(text[start]!)) start++
    while (end > start && /\s/.test(text[end - 1]!)) end--
    if (end > start) spans.push({ start, end })
  }
  return spans
}

interface Window extends Span {
  tokens: Set<string>
  /** Length penalty of the window: its distinct tokens, plus a bonus cost for two sentences. */
  size: number
}

/** How many units' answers one aligner remembers; a list revisits the same few units. */
const REMEMBERED = 512

/**
 * Prepares a text for repeated alignment. Returns a function giving the best-matching passage
 * for a unit, or null when nothing shares a content word with it. A passage is one sentence or,
 * when that scores better, a window of two adjacent sentences (facts often span a boundary).
 * The windows and their token sets are built once per text and each unit's answer is kept, so
 * moving the focus through a long article's units costs one pass of set look-ups, not a
 * re-tokenising of the article on every key press.
 */
export function makeAligner(text: string): (unit: string) => AlignedSpan | null {
  const sentences = splitSentences(text)
  const single = sentences.map((s) => new Set(contentTokens(text.slice(s.start, s.end))))
  // In reading order: each sentence, then the window it opens with the next one (the scan keeps
  // the first of equal scores, so the order is part of the answer).
  const windows: Window[] = []
  for (let i = 0; i < sentences.length; i++) {
    const p = sentences[i]!
    const tokens = single[i]!
    windows.push({ start: p.start, end: p.end, tokens, size: tokens.size })
    const q = sentences[i + 1]
    if (q) {
      const merged = new Set([...tokens, ...single[i + 1]!])
      // Only a window that adds recall over both halves is worth the longer highlight.
      windows.push({ start: p.start, end: q.end, tokens: merged, size: merged.size + 150 })
    }
  }
  const answers = new Map<string, AlignedSpan | null>()
  const align = (unit: string): AlignedSpan | null => {
    const query = new Set(contentTokens(unit))
    if (query.size === 0) return null
    let best: Window | null = null
    let bestScore = 0
    for (const w of windows) {
      let hit = 0
      for (const t of query) if (w.tokens.has(t)) hit++
      if (hit === 0) continue
      // Favour short, dense passages among those with equal recall.
      const score = hit / query.size - 0.001 * w.size
      if (!best || score > bestScore + 1e-9) {
        best = w
        bestScore = score
      }
    }
    if (!best) return null
    let hit = 0
    const tokens = new Set(contentTokens(text.slice(best.start, best.end)))
    for (const t of query) if (tokens.has(t)) hit++
    return { start: best.start, end: best.end, score: hit / query.size }
  }
  return (unit) => {
    const known = answers.get(unit)
    if (known !== undefined) return known
    const found = align(unit)
    if (answers.size >= REMEMBERED) answers.clear()
    answers.set(unit, found)
    return found
  }
}

/** One-off alignment of a unit in a text. */
export function alignUnit(text: string, unit: string): AlignedSpan | null {
  return makeAligner(text)(unit)
}
