import { Annotator } from '../../../shared/domain'
import type { Db } from '../connection'
import { now } from './rows'

// SELECT *: migration tests build workspaces from before annotators.kind (0110); it reads as 'person'.
export function listAnnotators(db: Db): Annotator[] {
  return (
    db.prepare('SELECT *, created_at AS createdAt FROM annotators ORDER BY name').all() as unknown[]
  ).map((r) => Annotator.parse(r))
}

/**
 * Why nobody labels as a source: its labels are the dataset's reference, and a person's verdict
 * saved under it would overwrite them. One wording for the start screen, the CLI and the service.
 */
export function notAPerson(name: string): string {
  return `“${name}” is a dataset's reference labels (a label source), not a person: nobody labels as it; choose another name`
}

/**
 * The source this name points at, as the workspace spells it, or null for a person's (or a new)
 * name. Case is ignored here only: "RefChecker" given for the source "refchecker" is that source
 * meant, and making a person of it would put two look-alike names side by side.
 */
export function sourceNamed(db: Db, name: string): string | null {
  const row = db
    .prepare(
      "SELECT name FROM annotators WHERE name = ? COLLATE NOCASE AND kind = 'source' ORDER BY name = ? DESC",
    )
    .get(name.trim(), name.trim()) as { name: string } | undefined
  return row?.name ?? null
}

/** Whether a person (not a source) holds exactly this name here: the name an import's labels would join. */
export function personNamed(db: Db, name: string): boolean {
  return (
    db.prepare("SELECT 1 FROM annotators WHERE name = ? AND kind = 'person'").get(name.trim()) !== undefined
  )
}

/** Returns the annotator with this name, creating it on first use. */
export function ensureAnnotator(db: Db, name: string): Annotator {
  const trimmed = name.trim()
  if (!trimmed) throw new Error('An annotator needs a name')
  db.prepare('INSERT OR IGNORE INTO annotators (name, created_at) VALUES (?, ?)').run(trimmed, now())
  return Annotator.parse(
    db.prepare('SELECT *, created_at AS createdAt FROM annotators WHERE name = ?').get(trimmed),
  )
}

/**
 * Renames a dataset's reference-label source (people keep their names: their bundles and exports
 * carry them). The new name must be free.
 */
export function renameSource(db: Db, annotatorId: number, name: string): Annotator {
  const row = db.prepare('SELECT kind FROM annotators WHERE id = ?').get(annotatorId) as
    | { kind: string }
    | undefined
  if (!row) throw new Error(`No label source with id ${annotatorId}`)
  if (row.kind !== 'source')
    throw new Error('Only a dataset’s reference-label source can be renamed here, not a person')
  const trimmed = name.trim()
  if (!trimmed) throw new Error('A source needs a name')
  const taken = db.prepare('SELECT id FROM annotators WHERE name = ? AND id <> ?').get(trimmed, annotatorId)
  if (taken) throw new Error(`“${trimmed}” is already a name in this workspace`)
  db.prepare('UPDATE annotators SET name = ? WHERE id = ?').run(trimmed, annotatorId)
  return Annotator.parse(
    db
      .prepare('SELECT id, name, created_at AS createdAt, kind FROM annotators WHERE id = ?')
      .get(annotatorId),
  )
}
