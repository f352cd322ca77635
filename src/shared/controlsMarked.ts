/**
 * What marking controls did, in the same words in `controls set` and the Project view: a second
 * `--from-gold` that marks nothing new says so, rather than repeating "9 marked".
 */
export function markedWords(r: { added: number; already: number }): string {
  if (r.already === 0) return `${r.added} marked`
  const were = r.already === 1 ? 'was' : 'were'
  return r.added === 0
    ? `none newly marked (${r.already} already ${were})`
    : `${r.added} newly marked, ${r.already} already ${were}`
}
