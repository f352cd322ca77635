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

/**
 * Word and space tokens the two texts may differ by before the diff gives up: its cost grows
 * with the length times this, and past it the texts differ almost throughout, so marking every
 * word says nothing (two unrelated 2,000-word answers took half a second of the page's time).
 */
export const DIFF_MAX_EDITS = 600

/** Null when the texts are too long, or too different, for a word diff to say anything. */
export function wordDiff(reference: string, candidate: string): WordDiff | null {
  if (reference.trim() === candidate.trim()) return { identical: true, removed: [], added: [], shared: 1 }
  if (reference.length > DIFF_LIMIT || candidate.length > DIFF_LIMIT) return null
  const removed: Span[] = []
  const added: Span[] = []
  let r = 0
  let c = 0
  let same = 0
  const parts = diffWords(reference, candidate, { maxEditLength: DIFF_MAX_EDITS })
  if (parts === undefined) return null
  for (const part of parts) {
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
