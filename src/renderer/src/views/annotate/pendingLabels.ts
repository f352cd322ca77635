import { z } from 'zod'
import type { CallInput } from '../../../../shared/contract'
import { EvidenceSpan, SaveId } from '../../../../shared/labelParts'

/**
 * Labels given but not yet acknowledged, kept in the tab's sessionStorage so that a reload, a
 * server restart (which gives the page a new token) or the URL opened again in this tab sends
 * them instead of losing them. Each is the `annotate.save` input as it would have been sent: its
 * target names the wording it was given on, so a unit reworded meanwhile refuses it cleanly.
 * Keyed by workspace file and annotator: another workspace or person never receives them.
 */
export type PendingSave = CallInput<'annotate.save'>

const PREFIX = 'factlab.pending'

export function pendingKey(workspaceFile: string, annotatorId: number): string {
  return `${PREFIX}:${annotatorId}:${workspaceFile}`
}

// The shape of `annotate.save`'s input, spelt out here: the app's first screen loads this, and
// the whole contract's schemas would more than double what it parses before showing anything.
const Stored = z.array(
  z.object({
    targetId: z.number().int(),
    annotatorId: z.number().int(),
    verdict: z.string().nullable(),
    evidence: z.array(EvidenceSpan).optional(),
    note: z.string().nullable().optional(),
    seconds: z.number().nonnegative().optional(),
    guidelinesVersion: z.number().int().min(1).optional(),
    saveId: SaveId.optional(),
  }),
)

/** The labels kept under `key`; anything unreadable (edited by hand, an older shape) is skipped. */
export function readPending(storage: Storage, key: string): PendingSave[] {
  const raw = storage.getItem(key)
  if (raw === null) return []
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch {
    return []
  }
  const parsed = Stored.safeParse(json)
  return parsed.success ? (parsed.data satisfies PendingSave[]) : []
}

/** Keeps `saves` under `key`, or forgets the key once nothing is waiting. */
export function writePending(storage: Storage, key: string, saves: readonly PendingSave[]): void {
  try {
    if (saves.length === 0) storage.removeItem(key)
    else storage.setItem(key, JSON.stringify(saves))
  } catch {
    // A full or disabled storage only loses the copy; the labels are still in the queue.
  }
}
