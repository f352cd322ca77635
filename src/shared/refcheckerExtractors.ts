import { z } from 'zod'
import { countOf } from './plural'

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

/** The extractor an extractor's variant (`<extractor> triplets`, `<model>/<extractor> triplets`) names, or null. */
function extractorOf(variant: string): string | null {
  const m = /(?:^|\/)([^/]+) triplets$/.exec(variant)
  return m ? m[1]! : null
}

/**
 * An overall row's count of responses in plain words. With several extractors every response is
 * one candidate per extractor, so "4" over 2 items would read as 4 responses: it says "4 candidates
 * (2 extractors)" instead. `variants`: the variants the figures are split by.
 */
export function responsesWords(responses: number, variants: readonly string[]): string {
  const extractors = new Set(variants.map(extractorOf).filter((e) => e !== null))
  if (extractors.size < 2) return String(responses)
  return `${countOf(responses, 'candidate')} (${extractors.size} extractors)`
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
