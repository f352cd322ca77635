import { countOf } from '../../shared/plural'

/** What a WikiEvalFacts export wrote, and what the dataset holds that the layout has no place for. */
export interface WikiNoteFacts {
  /** Verdicts written on facts: the gold's, or the one annotator's. */
  written: number
  /** Published labels whose key matched no fact, written back as the file had them. */
  matchingNoFact: number
  /** Whose labels were written; absent for the gold. */
  annotator?: string
  /** Every label of the dataset, and how many people and sources gave them. */
  labels: number
  annotators: number
  /** Gold verdicts an adjudicator decided. */
  adjudicated: number
  controls: number
}

/**
 * The export's message. The layout holds one label per fact and answer, as the published
 * dataset does: what did not fit is named, and only when there is some, so a release exported
 * whole is not told it lost anything.
 */
export function wikiNote(f: WikiNoteFacts): string {
  const what =
    f.annotator === undefined
      ? countOf(f.written, 'gold verdict')
      : `${f.annotator}'s ${countOf(f.written, 'label')}`
  const kept =
    f.matchingNoFact === 0
      ? ''
      : ` and ${countOf(f.matchingNoFact, 'published label')} whose key matches no fact, written as the imported file had ${f.matchingNoFact === 1 ? 'it' : 'them'}`
  const left: string[] = []
  const by = countOf(f.annotators, 'annotator')
  if (f.labels > f.written)
    left.push(
      f.annotator === undefined
        ? `who gave which of the workspace's ${countOf(f.labels, 'label')} by ${by} (the file holds one per fact and answer)`
        : `the other ${countOf(f.labels - f.written, 'label')} of the workspace's ${f.labels} by ${by}`,
    )
  if (f.adjudicated > 0)
    left.push(
      f.annotator === undefined
        ? `which ${countOf(f.adjudicated, 'verdict is an adjudicated decision', 'verdicts are adjudicated decisions')}`
        : `the dataset's ${countOf(f.adjudicated, 'adjudicated decision')}`,
    )
  if (f.controls > 0) left.push(`its ${countOf(f.controls, 'control item')}`)
  const head =
    'The WikiEvalFacts layout holds one label per fact and answer, as the published dataset does: ' +
    `this export has ${what}${kept} (imported back, they come under the name wikievalfacts).`
  if (left.length === 0) return `${head} Nothing else was labelled, so every label is in the file.`
  return `${head} Left out: ${listed(left)}. They come back whole only from the jsonl, csv or parquet layout.`
}

function listed(parts: readonly string[]): string {
  return parts.length < 2 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`
}
