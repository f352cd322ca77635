import { Annotator } from '../../../shared/domain'
import { nameKey } from '../../../shared/personName'
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
 * The annotator of this kind whose name is this one as people read it (shared/personName.ts:
 * case and Unicode normalisation aside), as the workspace spells it, or null. An exact match wins
 * over a look-alike, for a workspace that holds both from before.
 */
function kindNamed(db: Db, kind: 'person' | 'source', name: string): string | null {
  const wanted = name.trim()
  const key = nameKey(wanted)
  const rows = db.prepare('SELECT name FROM annotators WHERE kind = ? ORDER BY id').all(kind) as {
    name: string
  }[]
  return (rows.find((r) => r.name === wanted) ?? rows.find((r) => nameKey(r.name) === key))?.name ?? null
}

/**
 * The source this name points at, as the workspace spells it, or null for a person's (or a new)
 * name. "RefChecker" given for the source "refchecker" is that source meant, and making a person
 * of it would put two look-alike names side by side.
 */
export function sourceNamed(db: Db, name: string): string | null {
  return kindNamed(db, 'source', name)
}

/**
 * The person (not a source) whose name this is, as the workspace spells it, or null: the person an
 * import's labels under this name would join ("ana" and an NFD "Ana" both join "Ana").
 */
export function personNamed(db: Db, name: string): string | null {
  return kindNamed(db, 'person', name)
}

/**
 * The person whose name looks like this one. SELECT *: migration tests build workspaces from
 * before annotators.kind (0110), where everyone is a person.
 */
function personLookalike(db: Db, name: string): string | null {
  const key = nameKey(name)
  const rows = db.prepare('SELECT * FROM annotators ORDER BY id').all() as { name: string; kind?: string }[]
  return rows.find((r) => (r.kind ?? 'person') === 'person' && nameKey(r.name) === key)?.name ?? null
}

/**
 * Returns the annotator with this name, creating it on first use. A look-alike of a person's name
 * ("ana" typed where "Ana" labels) is that person, as it is for an import: two people whose names
 * differ only in case would split one annotator's labels in two.
 */
export function ensureAnnotator(db: Db, name: string): Annotator {
  const wanted = name.trim()
  if (!wanted) throw new Error('An annotator needs a name')
  const exact = db.prepare('SELECT 1 FROM annotators WHERE name = ?').get(wanted)
  const trimmed = exact ? wanted : (personLookalike(db, wanted) ?? wanted)
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
