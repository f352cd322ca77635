import type { UnitKind } from '../../shared/labelSchemas'

/*
 * Method × the dataset's units: a judge method reads units of given kinds (FaaF facts, RefChecker
 * triplets, DCR sentences, the holistic judge whole answers). A run over a dataset without them
 * would judge nothing and still end "done 0/0", so it is refused before it exists, with what the
 * method needs, what the dataset has, and how to make the missing units. Pure.
 */

const NOUNS: Record<UnitKind, string> = {
  fact: 'facts',
  triplet: 'triplets',
  sentence: 'sentences',
  whole: 'whole answers',
}

/** Where units of each kind come from, in the words of the Units view and the CLI. */
const MAKE: Record<UnitKind, string> = {
  fact: 'make facts in the Units view or with `factlab units generate --method facts`',
  triplet: 'extract triplets in the Units view or with `factlab units generate --method triplets`',
  sentence:
    'split the answers into sentences in the Units view or with `factlab units generate --method sentences` (no model needed)',
  whole: 'whole answers come with an import whose preset judges each answer as a whole',
}

const list = (kinds: readonly UnitKind[], conjunction: 'or' | 'and') => {
  const words = kinds.map((k) => NOUNS[k])
  return words.length <= 1
    ? (words[0] ?? '')
    : `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}`
}

export interface UnitFitInput {
  method: string
  /** The kinds the method judges. */
  needs: readonly UnitKind[]
  /** Of those, the kinds the slice has targets of. */
  inSlice: readonly UnitKind[]
  /** Every kind of unit the whole dataset has. */
  inDataset: readonly UnitKind[]
  /** Whether the run is limited to some variants or items. */
  sliced: boolean
  /** What came of it, in words: "no run was created" at creation, "nothing was judged" at start. */
  outcome: string
}

/** Why the method has nothing to judge here, or null when it has. */
export function unitFitProblem(f: UnitFitInput): string | null {
  if (f.inSlice.length > 0) return null
  const needs = `${f.method} judges ${list(f.needs, 'or')}`
  const hasAny = f.needs.some((k) => f.inDataset.includes(k))
  if (hasAny && f.sliced)
    return `${needs}, and the chosen variants or items have none (the dataset has them elsewhere); ${f.outcome}`
  const has =
    f.inDataset.length === 0
      ? 'this dataset has no units'
      : `this dataset has ${list(f.inDataset, 'and')} only`
  const make = f.needs.map((k) => MAKE[k]).join('; or ')
  return `${needs}, and ${has}; ${f.outcome}. To run ${f.method}, ${make}`
}
