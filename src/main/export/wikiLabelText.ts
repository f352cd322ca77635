import type { LabelSchema } from '../../shared/labelSchemas'
import {
  FACT_LABEL_TEXT,
  FactLabelText,
  LABELS_MATCHING_NO_FACT,
  type LabelMatchingNoFact,
  LabelsMatchingNoFact,
  usualLabelText,
} from '../../shared/releaseFactLabels'
import { matchKey } from '../import/text'

/** An item's metadata, parsed. */
type Json = Record<string, unknown>

/**
 * The label text of a WikiEvalFacts export as the imported release wrote it: its own spelling
 * of a verdict, and the labels whose key matched none of its facts (both kept in the item's
 * metadata at import). Pure: the rows are read by wikiEvalFacts.ts.
 */

/** The key a dict entry is matched to a fact by, as the import matches it. */
export const factKey = (text: string) => matchKey(text.replace(/^\s*[-–•*]\s+/, ''))

/** The file's spellings in one item's metadata, or none. */
export function itemSpellings(meta: Json): Record<string, string> {
  return FactLabelText.safeParse(meta[FACT_LABEL_TEXT]).data ?? {}
}

/**
 * How a verdict is written in this item's dicts: as this item's file row spelt it, else as the
 * rest of the file did (a label a person gave here reads like the release's), else as usual.
 */
export function labelText(
  schema: LabelSchema,
  own: Record<string, string>,
  dataset: Record<string, string>,
): (verdict: string) => string {
  return (verdict) => own[verdict] ?? dataset[verdict] ?? usualLabelText(schema, verdict)
}

/**
 * The published labels of one answer that matched no fact, as `[key, label]` pairs for its dict.
 * Only the gold export (`annotator` null) and an export of their own source carry them; a key
 * that now matches a fact labelled in the same dict (`labelled`, added since) gives way to it.
 */
export function labelsMatchingNoFact(
  meta: Json,
  variant: string,
  annotator: string | null,
  labelled: ReadonlySet<string>,
): [string, string][] {
  const kept: LabelMatchingNoFact[] = LabelsMatchingNoFact.safeParse(meta[LABELS_MATCHING_NO_FACT]).data ?? []
  return kept
    .filter((k) => k.variant === variant && (annotator === null || k.annotator === annotator))
    .filter((k) => !labelled.has(factKey(k.fact)))
    .map((k) => [k.fact, k.label])
}
