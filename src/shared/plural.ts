/** "1 item", "3 items", "1 reply", "2 replies": a count with its noun in the right number. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`
}

/** A count as every screen writes it: "900,000", whatever the machine's locale. */
export function formatCount(n: number): string {
  return n.toLocaleString('en')
}

/** Imported verdicts with the N/A among them said: "5 verdicts, 2 of them N/A", so 5 is not read as 5 judgements. */
export function verdictsWords(verdicts: number, na: number): string {
  return na > 0
    ? `${countOf(verdicts, 'verdict')}, ${na} of ${verdicts === 1 ? 'it' : 'them'} N/A`
    : countOf(verdicts, 'verdict')
}
