import { ImportError } from '../import/errors'
import { removeAbandonedImports } from '../import/hidden'
import { LabelWriter } from '../labels/labels'
import { type Db, openWorkspace } from '../store/connection'
import { ContentWriter } from '../store/repos/content'

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

  static open(file: string): Workspace {
    const db = openWorkspace(file)
    // An import that died mid-way left a hidden, half-filled dataset; nobody can see or finish it.
    try {
      removeAbandonedImports(db)
    } catch (error) {
      // Another process holding the write lock must not keep the workspace shut: the hidden
      // dataset stays out of sight and the next open withdraws it.
      if (!(error instanceof ImportError)) {
        db.close()
        throw error
      }
    }
    return new Workspace(file, db)
  }

  close(): void {
    if (this.db.open) this.db.close()
  }
}
