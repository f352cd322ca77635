import { z } from 'zod'

/**
 * Who is looking, for the calls that can show a target's verdicts. While `blind`, main keeps
 * other annotators' verdicts, judges' verdicts and the disputed flag of a target out of every
 * reply until this annotator has a current label on it (src/main/blind/).
 */
export const Viewer = z.object({
  /** null: nobody chosen yet; while blind, such a viewer sees nothing of the others. */
  annotatorId: z.number().int().positive().nullable(),
  blind: z.boolean(),
})
export type Viewer = z.infer<typeof Viewer>
