import { Annotator } from '../../../shared/domain'
import type { Db } from '../connection'
import { now } from './rows'

export function listAnnotators(db: Db): Annotator[] {
  return (
    db.prepare('SELECT id, name, created_at AS createdAt FROM annotators ORDER BY name').all() as unknown[]
  ).map((r) => Annotator.parse(r))
}

/** Returns the annotator with this name, creating it on first use. */
export function ensureAnnotator(db: Db, name: string): Annotator {
  const trimmed = name.trim()
  if (!trimmed) throw new Error('An annotator needs a name')
  db.prepare('INSERT OR IGNORE INTO annotators (name, created_at) VALUES (?, ?)').run(trimmed, now())
  return Annotator.parse(
    db.prepare('SELECT id, name, created_at AS createdAt FROM annotators WHERE name = ?').get(trimmed),
  )
}
