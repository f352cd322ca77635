import { ImportError } from '../import/errors'
import { removeAbandonedImports } from '../import/hidden'
import { LabelWriter } from '../labels/labels'
import { forgetOldSaveIds } from '../labels/saveOnce'
import { type Db, openWorkspace } from '../store/connection'
import { type IntegrityResult, isLarger, quickCheckInBackground } from '../store/integrity'
import { ContentWriter } from '../store/repos/content'
import { troubleKind } from '../store/trouble'
import { untilQuiet } from './untilQuiet'

/** Workspaces up to this size are checked before they open (well under a second). */
export const DEFER_CHECK_ABOVE = 32 * 2 ** 20

/** An open workspace file and the prepared writers that go with it. */
export class Workspace {
  readonly content: ContentWriter
  readonly labels: LabelWriter

  constructor(
    readonly file: string,
    readonly db: Db,
  ) {
    this.content = new ContentWriter(db)
    this.labels = new LabelWriter(db)
  }

  /**
   * Set when the integrity check of a large file runs in the background (`deferLargeCheck`),
   * once the process is quiet (untilQuiet.ts); null when the file was checked before open returned.
   */
  integrity: Promise<IntegrityResult> | null = null

  /** Aborted when the workspace closes: a check still waiting to start never starts. */
  private readonly closing = new AbortController()

  static open(file: string, opts: { deferLargeCheck?: boolean; readOnlyCopy?: boolean } = {}): Workspace {
    const deferred = opts.deferLargeCheck === true && isLarger(file, DEFER_CHECK_ABOVE)
    const db = openWorkspace(file, { skipQuickCheck: deferred, readOnlyCopy: opts.readOnlyCopy ?? false })
    // An import that died mid-way left a hidden, half-filled dataset; nobody can see or finish it.
    try {
      removeAbandonedImports(db)
    } catch (error) {
      // Another process holding the write lock, a full disk or a read-only file must not keep the
      // workspace shut: the hidden dataset stays out of sight and a later open withdraws it.
      if (!(error instanceof ImportError) && troubleKind(error) === null) {
        db.close()
        throw error
      }
    }
    // Save ids past the resend window (labels/saveOnce.ts): on open, never on a label's save.
    try {
      forgetOldSaveIds(db)
    } catch (error) {
      // Busy, full or read-only: the old ids wait for a later open; they harm nobody meanwhile.
      if (troubleKind(error) === null) {
        db.close()
        throw error
      }
    }
    const ws = new Workspace(file, db)
    // Nobody reads the answer for a workspace closed before its check began, so none is run, and
    // closing it stops the wait (a CLI command exits at once).
    if (deferred)
      ws.integrity = untilQuiet({ signal: ws.closing.signal }).then(() =>
        db.open ? quickCheckInBackground(file) : { ok: true },
      )
    return ws
  }

  close(): void {
    this.closing.abort()
    if (this.db.open) this.db.close()
  }
}
