import { diffWords } from 'diff'

/*
 * A word-level comparison of a candidate with its reference, as character spans in each text:
 * what the candidate adds (spans of the candidate) and what it leaves out (spans of the
 * reference). Spans, not marked-up copies, so the panes keep one text node each and every
 * evidence offset stays valid. Pure: no DOM.
 */

export interface Span {
  start: number
  end: number
}

export interface WordDiff {
  /** The two texts are the same once surrounding white space is set aside. */
  identical: boolean
  /** Words of the reference the candidate does not have. */
  removed: Span[]
  /** Words of the candidate the reference does not have. */
  added: Span[]
  /** Share of the candidate's characters that are also in the reference, 0–1. */
  shared: number
}

/** Texts longer than this are not diffed: the cost grows with the product of their lengths. */
export const DIFF_LIMIT = 20_000

export function wordDiff(reference: string, candidate: string): WordDiff | null {
  if (reference.trim() === candidate.trim()) return { identical: true, removed: [], added: [], shared: 1 }
  if (reference.length > DIFF_LIMIT || candidate.length > DIFF_LIMIT) return null
  const removed: Span[] = []
  const added: Span[] = []
  let r = 0
  let c = 0
  let same = 0
  for (const part of diffWords(reference, candidate)) {
    const n = part.value.length
    if (part.added) {
      if (part.value.trim()) added.push({ start: c, end: c + n })
      c += n
    } else if (part.removed) {
      if (part.value.trim()) removed.push({ start: r, end: r + n })
      r += n
    } else {
      same += n
      r += n
      c += n
    }
  }
  return { identical: false, removed, added, shared: candidate.length === 0 ? 0 : same / candidate.length }
}
