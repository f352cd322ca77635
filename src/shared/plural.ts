/** "1 item", "3 items", "1 reply", "2 replies": a count with its noun in the right number. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`
}

/** A count as every screen writes it: "900,000", whatever the machine's locale. */
export function formatCount(n: number): string {
  return n.toLocaleString('en')
}
