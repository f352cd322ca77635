import { nameKey } from '../../shared/personName'
import type { Db } from '../store/connection'

export interface NamedAnnotator {
  id: number
  name: string
  kind: string
}

/**
 * The workspace's annotators found by name as people read it (shared/personName.ts), for an
 * import's label givers: "ana" in a file is the "Ana" already here. Names are read once and then
 * only those added since (by this import or anyone else), so a file naming thousands of workers
 * costs one short query per new name.
 */
export class WorkspaceNames {
  private readonly idsByKey = new Map<string, number[]>()
  private lastId = 0
  private readonly newer
  private readonly byId

  constructor(db: Db) {
    this.newer = db.prepare('SELECT id, name FROM annotators WHERE id > ? ORDER BY id')
    this.byId = db.prepare('SELECT id, name, kind FROM annotators WHERE id = ?')
  }

  /** The annotator of this name: the exact spelling where the workspace has it, else the first look-alike. */
  find(name: string): NamedAnnotator | undefined {
    for (const r of this.newer.all(this.lastId) as { id: number; name: string }[]) {
      const key = nameKey(r.name)
      const ids = this.idsByKey.get(key)
      if (ids) ids.push(r.id)
      else this.idsByKey.set(key, [r.id])
      this.lastId = r.id
    }
    // Read again by id: a kind or a source's name may have changed since the names were read.
    const rows = (this.idsByKey.get(nameKey(name)) ?? []).flatMap(
      (id) => (this.byId.get(id) as NamedAnnotator | undefined) ?? [],
    )
    const wanted = name.trim()
    return rows.find((r) => r.name === wanted) ?? rows.find((r) => nameKey(r.name) === nameKey(wanted))
  }
}
