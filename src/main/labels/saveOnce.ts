import { z } from 'zod'
import { Label, type LabelInput } from '../../shared/domain'
import { ServiceError } from '../app/errors'
import { withBusyTimeout } from '../store/busyWait'
import type { Db } from '../store/connection'
import { now, parseJson } from '../store/repos/rows'
import { stmt } from '../store/statements'

/*
 * A save sent again because its answer was lost (a timeout, a cut connection, a restarted server)
 * may already have landed. The client names each attempt with an id and sends the same id again;
 * a known id is answered with the label the first save stored, and nothing is written, so a label
 * given once is stored once (one history row, its seconds counted once). Table: migration 0420.
 */

/** What the client sends: a label and, optionally, the id of this attempt to save it. */
export type SaveRequest = LabelInput & { saveId?: string | undefined }

/** The save as first sent, in a fixed key order: the same request always reads the same. */
function fingerprint(r: SaveRequest): string {
  return JSON.stringify([
    r.targetId,
    r.annotatorId,
    r.verdict,
    r.evidence ?? null,
    r.note === undefined ? '(kept)' : r.note,
    r.seconds ?? 0,
    r.guidelinesVersion ?? null,
  ])
}

const Stored = z.object({ request: z.string(), label: z.string() })

/**
 * The label a save with this id stored, when it landed earlier; null for a new id (or none). An
 * id that came with another label is refused: answering it with the first label would tell the
 * client its new label was saved.
 */
export function savedBefore(db: Db, r: SaveRequest): Label | null {
  if (r.saveId === undefined) return null
  const row = stmt(db, 'SELECT request, label FROM label_saves WHERE save_id = ?').get(r.saveId)
  if (row === undefined) return null
  const stored = Stored.parse(row)
  if (stored.request !== fingerprint(r))
    throw new ServiceError(
      'bad_input',
      `The save id ${r.saveId} was already used for another label; nothing was saved. Send each new label with a new save id.`,
    )
  return parseJson(Label, stored.label, 'label_saves.label')
}

/** Remembers what the save with this id stored; called in the transaction that wrote the label. */
export function rememberSave(db: Db, r: SaveRequest, label: Label): void {
  if (r.saveId === undefined) return
  stmt(
    db,
    'INSERT INTO label_saves (save_id, target_id, annotator_id, request, label, at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(r.saveId, r.targetId, r.annotatorId, fingerprint(r), JSON.stringify(label), now())
}

/**
 * How long a save id is kept. A resend comes from the labelling screen's queue, which lives as
 * long as the tab (pendingLabels.ts keeps it in the tab's sessionStorage): seconds after the
 * first send as a rule, hours at worst (a laptop closed mid-save and opened the next morning).
 * Thirty days is far past any tab a person keeps open with a label still waiting, so nobody would
 * notice the rule, while the table stops growing with every label ever given.
 */
export const SAVE_IDS_KEPT_DAYS = 30

/**
 * Forgets the save ids older than the window; labels and their history are never touched (the
 * ids only say which saves already landed). Run when a workspace opens, not on a save: it never
 * waits for another program's write lock (that open simply leaves the pruning to a later one),
 * and it writes nothing at all when no id is old enough. Returns how many ids it forgot.
 */
export function forgetOldSaveIds(db: Db, nowMs: number = Date.now()): number {
  const before = new Date(nowMs - SAVE_IDS_KEPT_DAYS * 86_400_000).toISOString()
  // A DELETE takes the write lock even when nothing matches: look first (a short index read).
  if (stmt(db, 'SELECT 1 FROM label_saves WHERE at < ? LIMIT 1').get(before) === undefined) return 0
  return withBusyTimeout(db, 0, () => stmt(db, 'DELETE FROM label_saves WHERE at < ?').run(before).changes)
}
