import { countOf } from './plural'

/*
 * The words for FactLab's own reply store: a request identical to one already answered takes the
 * stored reply, so nothing is sent and nothing is paid. The provider's prompt cache is another
 * thing (it is paid, at its own price, and shows as "cache read" and "cache write" in the cost
 * split of costSplit.ts), so these words never say "cache": "12 cached" beside "15,602 cache
 * read" read as one figure contradicting the other. Pure: no I/O.
 */

/** Said where every call of a run took a stored reply: it paid nothing and replayed earlier answers. */
export const ALL_REUSED = 'all replies reused, nothing sent'

/** Some calls took a stored reply: "12 replies reused". */
export function reusedWords(n: number): string {
  return `${countOf(n, 'reply', 'replies')} reused`
}

/** The hover text beside those words where there is room to say what they mean. */
export const REUSED_TITLE =
  'A reply FactLab already held for an identical request is used again: that call is not sent and costs nothing. The provider’s prompt cache (cache read, cache write) is a different thing: those calls are sent and paid.'
