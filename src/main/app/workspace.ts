import { type Db, openWorkspace } from '../store/connection'
import { ContentWriter } from '../store/repos/content'
import { LabelWriter } from '../store/repos/labels'

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
    return new Workspace(file, openWorkspace(file))
  }

  close(): void {
    if (this.db.open) this.db.close()
  }
}
