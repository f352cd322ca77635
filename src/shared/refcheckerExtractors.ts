import { z } from 'zod'

/**
 * RefChecker's extractors, each kept apart. The paper reports every extractor's triplets on their
 * own (its tables compare extractors and checkers over the same responses), so a response two
 * extractors read becomes two candidates with the response's text, one per extractor: every
 * per-response figure (triplet count, hallucination shares, strict label, a checker's error rate)
 * is then one extractor's, and the variant breakdown that every view, report and `metrics` draws
 * splits them without new machinery. A file with one extractor keeps the one candidate
 * `response` it always had (a release folder: the model's name). The candidate's metadata keeps
 * what the export needs to write the list back as released.
 */

/** The variant of one extractor's candidate, when a response has several. */
export function extractorVariant(extractor: string): string {
  return `${extractor} triplets`
}

/** The response's own variant (the model, or `response`) behind an extractor's candidate. */
export function responseVariant(variant: string, extractor: string | undefined): string {
  if (extractor === undefined) return variant
  const own = extractorVariant(extractor)
  if (variant === own) return 'response'
  return variant.endsWith(`/${own}`) ? variant.slice(0, -own.length - 1) : variant
}

/** RefChecker's own spelling of a label: capitalised. */
export function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}

/** What a RefChecker candidate's metadata says of its list (absent on workspaces made before). */
export const ExtractorMeta = z.object({
  /** The list's key less `_response_kg`. */
  extractor: z.string().min(1).optional(),
  /** false: the released row had no such key (written back without it). */
  listed: z.boolean().optional(),
  /** The release's spelling of a label where it is not the capitalised one, by verdict. */
  published_labels: z.record(z.string(), z.string()).optional(),
})
export type ExtractorMeta = z.infer<typeof ExtractorMeta>
