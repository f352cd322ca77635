/** What the views show where an item has no reference (RefChecker's released files carry none). */
export const NO_REFERENCE = 'No reference given'

export const NO_REFERENCE_HINT =
  'The imported file had no reference for this item; import it again with a second file of question and reference per id to add one.'

export function hasReference(reference: string | null | undefined): boolean {
  return reference != null && reference.trim() !== ''
}
