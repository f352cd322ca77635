import { z } from 'zod'
import type { LabelSchema } from './labelSchemas'

/**
 * What a release's `{fact: label}` dicts hold beyond the labels FactLab files on facts, kept in
 * the item's metadata at import so an export in the release's layout gives it back as published.
 */

/** Labels whose key matched none of the item's facts: warned about at import, never dropped. */
export const LABELS_MATCHING_NO_FACT = 'fact_labels_matching_no_fact'
/** The file's own spelling of a label where it is not the usual one, by verdict. */
export const FACT_LABEL_TEXT = 'fact_label_text'

export const LabelMatchingNoFact = z.object({
  variant: z.string(),
  annotator: z.string(),
  /** The dict's key, as the file wrote it. */
  fact: z.string(),
  /** The label, as the file wrote it. */
  label: z.string(),
})
export type LabelMatchingNoFact = z.infer<typeof LabelMatchingNoFact>

export const LabelsMatchingNoFact = z.array(LabelMatchingNoFact)
export const FactLabelText = z.record(z.string(), z.string())

/**
 * The FaaF release spells human fact labels as Python booleans turned to text. A `not_clear`
 * with no spelling from an imported file is written as 'Not clear', so that it is not silently
 * read as either True or False.
 */
const FAAF_VERDICT_TEXT: Record<string, string> = {
  true: 'True',
  false: 'False',
  not_clear: 'Not clear',
}

/** How a verdict is written in a label dict when the file gave no spelling of its own. */
export function usualLabelText(schema: LabelSchema, verdict: string): string {
  return schema.type === 'categorical' && schema.name === 'faaf'
    ? (FAAF_VERDICT_TEXT[verdict] ?? verdict)
    : verdict
}
