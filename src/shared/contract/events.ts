import { z } from 'zod'

/** Events main pushes to the renderer (IPC) or the browser (server-sent events). */
export const events = {
  'runs.progress': z.object({
    runId: z.number().int(),
    status: z.string(),
    done: z.number().int(),
    total: z.number().int(),
    etaSeconds: z.number().nullable(),
    cost: z.number(),
  }),
  /**
   * A dataset export under way (a few times a second): in phase `rows`, targets written of those
   * it will write; in phase `card`, the README.md card and per-response figures (0 of 1, 1 of 1).
   * `exportId` is the one the export was started with (null when it was given none). The CLI
   * prints it; the export dialog shows it beside its Cancel button.
   */
  'exports.progress': z.object({
    datasetId: z.number().int(),
    exportId: z.string().nullable(),
    phase: z.enum(['rows', 'card']),
    done: z.number().int(),
    total: z.number().int(),
  }),
  'workspace.changed': z.object({ file: z.string() }),
  /**
   * The background integrity check of a large workspace found damage; from then on the
   * workspace is read-only, so nothing more is written into a damaged file.
   */
  'workspace.damaged': z.object({ file: z.string(), problem: z.string() }),
  'labels.changed': z.object({ datasetId: z.number().int(), targetIds: z.array(z.number().int()) }),
  /** The lead published a guidelines version: open Annotate views show it before the next label. */
  'guidelines.changed': z.object({ datasetId: z.number().int(), version: z.number().int() }),
  /** The desktop menu asks the renderer to open a screen: import, export, or the annotator chooser. */
  'app.navigate': z.object({ view: z.enum(['import', 'export', 'annotator']) }),
} as const

export type Events = typeof events
export type EventName = keyof Events
export type EventPayload<K extends EventName> = z.infer<Events[K]>
export const EVENT_NAMES = Object.keys(events) as EventName[]
