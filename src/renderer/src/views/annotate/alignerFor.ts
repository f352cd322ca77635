import { makeAligner } from '../../../../shared/align'

type Aligner = ReturnType<typeof makeAligner>

/** The texts of an item or two: its reference and its answers, a few items back. */
const KEEP = 16
const kept = new Map<string, Aligner>()

/**
 * The aligner of a text, built once and kept while the text is among the last few asked for. An
 * aligner also keeps its answer per unit, so the answers found while the page was idle (the
 * units of the other variants too) are there when a key switches to that variant: the switch
 * neither splits the new answer into sentences nor tokenises its units inside its frame.
 */
export function alignerFor(text: string): Aligner {
  const known = kept.get(text)
  if (known) {
    // Most recently used last, so the oldest is the one let go.
    kept.delete(text)
    kept.set(text, known)
    return known
  }
  const made = makeAligner(text)
  kept.set(text, made)
  if (kept.size > KEEP) kept.delete(kept.keys().next().value as string)
  return made
}
