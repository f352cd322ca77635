import { z } from 'zod'
import { call } from './define'

/** Calls of the workspace area. Names read `workspace.verb`. */
export const workspaceCalls = {
  'workspace.info': call(
    z.object({}).default({}),
    z.object({ file: z.string(), schemaVersion: z.number().int(), appVersion: z.string() }),
  ),
}
