/** A sentence of a text with its character offsets [start, end) into that text. */
export interface SentenceSpan {
  text: string
  start: number
  end: number
}

/*
 * ICU's sentence rules (behind Intl.Segmenter) break after a title such as "Dr." because the
 * next word is capitalised. These abbreviations almost never end a sentence, so a break right
 * after one is undone. Single capital initials ("J. K. Rowling") are handled the same way.
 */
const NO_BREAK_AFTER = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'mt',
  'vs',
  'gen',
  'col',
  'lt',
  'capt',
  'sgt',
  'gov',
  'sen',
  'rep',
  'rev',
  'fig',
  'no',
  'vol',
  'approx',
])

function endsWithAbbreviation(segment: string): boolean {
  // A line break after the period is a real boundary, whatever the word before it.
  const m = /(?:^|[\s(])([A-Za-z]+)\.[ \t]*$/.exec(segment)
  if (!m) return false
  const word = m[1]!
  return NO_BREAK_AFTER.has(word.toLowerCase()) || /^[A-Z]$/.test(word)
}

const segmenters = new Map<string, Intl.Segmenter>()

function segmenter(locale: string): Intl.Segmenter {
  let s = segmenters.get(locale)
  if (!s) {
    s = new Intl.Segmenter(locale, { granularity: 'sentence' })
    segmenters.set(locale, s)
  }
  return s
}

/**
 * Splits a text into sentences, deterministically (DCR's divide step without an LLM).
 * Sentences are trimmed of surrounding whitespace, but their offsets still point into the
 * original text so evidence and highlights line up; blank stretches produce no sentence.
 */
export function splitSentences(text: string, locale = 'en'): SentenceSpan[] {
  const raw: { start: number; end: number }[] = []
  for (const seg of segmenter(locale).segment(text)) {
    const start = seg.index
    const end = seg.index + seg.segment.length
    const prev = raw[raw.length - 1]
    if (prev && endsWithAbbreviation(text.slice(prev.start, prev.end))) {
      prev.end = end
    } else raw.push({ start, end })
  }
  const out: SentenceSpan[] = []
  for (const r of raw) {
    const slice = text.slice(r.start, r.end)
    const lead = slice.length - slice.trimStart().length
    const body = slice.trim()
    if (!body) continue
    out.push({ text: body, start: r.start + lead, end: r.start + lead + body.length })
  }
  return out
}
