/** "1 item", "3 items", "1 reply", "2 replies": a count with its noun in the right number. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`
}

/** A count as every screen writes it: "900,000", whatever the machine's locale. */
export function formatCount(n: number): string {
  // A whole number is grouped here, the same characters as toLocaleString('en') gives: a page's
  // first toLocaleString loads the locale's data, a tenth of a second at a cold first screen.
  // -0 ("-0") and fractions are left to it.
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en')
  const digits = String(Math.abs(n))
  let out = digits.slice(0, digits.length % 3 || 3)
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`
  return n < 0 ? `-${out}` : out
}

/** Imported verdicts with the N/A among them said: "5 verdicts, 2 of them N/A", so 5 is not read as 5 judgements. */
export function verdictsWords(verdicts: number, na: number): string {
  return na > 0
    ? `${countOf(verdicts, 'verdict')}, ${na} of ${verdicts === 1 ? 'it' : 'them'} N/A`
    : countOf(verdicts, 'verdict')
}
