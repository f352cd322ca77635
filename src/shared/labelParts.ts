import { z } from 'zod'

/*
 * The parts of a label that the app's first screen checks on its own: labels kept in the tab
 * from before a reload (renderer pendingLabels.ts) are read back through them. domain.ts
 * re-exports them with the rest of the vocabulary; they are apart so that the first screen does
 * not build every schema of the vocabulary before it shows anything.
 */

export const Pane = z.enum(['reference', 'candidate'])
export type Pane = z.infer<typeof Pane>

/** A span of text a person pointed at as evidence: character offsets [start, end). */
export const EvidenceSpan = z
  .object({ pane: Pane, start: z.number().int().nonnegative(), end: z.number().int().nonnegative() })
  .refine((s) => s.end > s.start, { message: 'an evidence span must not be empty' })
export type EvidenceSpan = z.infer<typeof EvidenceSpan>

/**
 * A client's id for one attempt to save a label (annotate.save's `saveId`): random, so two people
 * or two tabs never share one, and plain enough to pass through a shell or a JSONL line.
 */
export const SaveId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'a save id is 8 to 64 letters, digits, dashes or underscores')
