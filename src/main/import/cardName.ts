import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * The dataset's name from the card FactLab's export writes beside its data file (README.md, YAML
 * front matter `pretty_name`). Every export's file is called data.jsonl (or .csv, .parquet), so a
 * round trip named after the file would always give a dataset called "data". Null when there is
 * no such card or it names nothing.
 */
export function nameFromCard(dataFile: string): string | null {
  let text: string
  try {
    text = readFileSync(join(dirname(dataFile), 'README.md'), 'utf8')
  } catch {
    return null
  }
  return prettyName(text)
}

/** `pretty_name` of a card's front matter (the block between the first two `---` lines). Pure. */
export function prettyName(card: string): string | null {
  const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(card)
  if (!m) return null
  const line = /^pretty_name:[ \t]*(.+?)[ \t]*$/m.exec(m[1]!)
  if (!line) return null
  const raw = line[1]!
  let name = raw
  if (raw.startsWith('"')) {
    try {
      name = JSON.parse(raw) as string
    } catch {
      return null
    }
  } else if (raw.startsWith("'") && raw.endsWith("'")) name = raw.slice(1, -1).replace(/''/g, "'")
  name = String(name).trim()
  return name === '' ? null : name
}
