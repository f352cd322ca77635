import { z } from 'zod'
import { Annotator } from '../domain'
import { call } from './define'

/** Calls of the workspace area. Names read `workspace.verb`. */
export const workspaceCalls = {
  'workspace.info': call(
    z.object({}).default({}),
    z.object({ file: z.string(), schemaVersion: z.number().int(), appVersion: z.string() }),
  ),
  'workspace.annotators': call(z.object({}).default({}), z.array(Annotator)),
  /**
   * Who may label here: on a laptop opened from work packages, only their annotators (`only`,
   * with `why` in plain words); anywhere else anyone (`only: null`).
   */
  'workspace.labellers': call(
    z.object({}).default({}),
    z.object({
      only: z.array(z.object({ id: z.number().int(), name: z.string() })).nullable(),
      why: z.string().nullable(),
    }),
  ),
  /** The annotator with this name, created on first use (who is labelling is chosen at start). */
  'workspace.ensureAnnotator': call(z.object({ name: z.string().trim().min(1).max(100) }), Annotator),
  /** Renames a dataset's reference-label source (MRPC quality…); people are not renamed. */
  'workspace.renameSource': call(
    z.object({ annotatorId: z.number().int().positive(), name: z.string().trim().min(1).max(100) }),
    Annotator,
  ),
}
