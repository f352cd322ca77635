/*
 * The guidelines room: a dataset's Markdown guidelines, every edit a new version (`guidelines`,
 * never updated), who has read them before their first label (`guidelines_read`). Each label is
 * stamped with the version by triggers (migration 0080); active HTML is refused with the words of
 * src/shared/guidelinesCheck.ts, and the renderer shows them through marked + DOMPurify.
 */
import type { GuidelinesVersion } from '../../shared/contract/projects'
import { guidelinesProblems, guidelinesRefusal } from '../../shared/guidelinesCheck'
import { ServiceError } from '../app/errors'
import { hasLabelIn } from '../labels/projectReads'
import { requireDataset } from '../projects/plan'
import type { Db } from '../store/connection'
import { now } from '../store/repos/rows'

interface Row {
  version: number
  body: string
  author: string | null
  created_at: string
}

const toVersion = (r: Row): GuidelinesVersion => ({
  version: r.version,
  body: r.body,
  author: r.author,
  createdAt: r.created_at,
})

/** Every version of a dataset's guidelines, newest first. */
export function guidelinesVersions(db: Db, datasetId: number): GuidelinesVersion[] {
  requireDataset(db, datasetId)
  return (
    db
      .prepare(
        'SELECT version, body, author, created_at FROM guidelines WHERE dataset_id = ? ORDER BY version DESC',
      )
      .all(datasetId) as Row[]
  ).map(toVersion)
}

/**
 * Saves an edit as a new version (the old ones stay). A text that is the same as the current
 * version adds nothing; one holding a script or other active HTML is refused with nothing saved.
 */
export function saveGuidelines(db: Db, datasetId: number, body: string, author?: string): GuidelinesVersion {
  requireDataset(db, datasetId)
  const problems = guidelinesProblems(body)
  if (problems.length > 0) throw new ServiceError('bad_input', guidelinesRefusal(problems))
  return db.transaction(() => {
    const current = db
      .prepare(
        'SELECT version, body, author, created_at FROM guidelines WHERE dataset_id = ? ORDER BY version DESC LIMIT 1',
      )
      .get(datasetId) as Row | undefined
    if (current && current.body === body) return toVersion(current)
    const version = (current?.version ?? 0) + 1
    db.prepare(
      'INSERT INTO guidelines (dataset_id, version, body, author, created_at) VALUES (?, ?, ?, ?, ?)',
    ).run(datasetId, version, body, author ?? null, now())
    return toVersion(
      db
        .prepare(
          'SELECT version, body, author, created_at FROM guidelines WHERE dataset_id = ? AND version = ?',
        )
        .get(datasetId, version) as Row,
    )
  })()
}

/**
 * An annotator must read the guidelines in full before their first label on the dataset (true
 * when there are guidelines, they have placed no label here yet, and have not read them), and
 * again before their next label once the lead publishes a version newer than the one they read.
 */
export function mustReadGuidelines(db: Db, datasetId: number, annotatorId: number): boolean {
  const latest = db
    .prepare('SELECT MAX(version) AS v FROM guidelines WHERE dataset_id = ?')
    .get(datasetId) as {
    v: number | null
  }
  if (latest.v === null) return false
  const read = guidelinesReadVersion(db, datasetId, annotatorId)
  if (read !== null) return read < latest.v
  return !hasLabelIn(db, annotatorId, datasetId)
}

export function markGuidelinesRead(db: Db, datasetId: number, annotatorId: number, version: number): void {
  requireDataset(db, datasetId)
  const exists = db
    .prepare('SELECT 1 FROM guidelines WHERE dataset_id = ? AND version = ?')
    .get(datasetId, version)
  if (!exists) throw new ServiceError('not_found', `This dataset has no guidelines version ${version}`)
  if (!db.prepare('SELECT 1 FROM annotators WHERE id = ?').get(annotatorId))
    throw new ServiceError('not_found', `No annotator with id ${annotatorId}`)
  db.prepare(
    `INSERT INTO guidelines_read (dataset_id, annotator_id, version, at) VALUES (?, ?, ?, ?)
     ON CONFLICT (dataset_id, annotator_id) DO UPDATE SET version = excluded.version, at = excluded.at`,
  ).run(datasetId, annotatorId, version, now())
}

/** The version an annotator last said they read in full, or null. */
export function guidelinesReadVersion(db: Db, datasetId: number, annotatorId: number): number | null {
  const row = db
    .prepare('SELECT version FROM guidelines_read WHERE dataset_id = ? AND annotator_id = ?')
    .get(datasetId, annotatorId) as { version: number } | undefined
  return row?.version ?? null
}

/** When an annotator last said they read a version in full: what travels with their bundle. */
export interface GuidelinesRead {
  version: number
  at: string
}

/** The version each annotator of the dataset last read in full, and when, by annotator id. */
export function guidelinesReadBy(db: Db, datasetId: number): Map<number, GuidelinesRead> {
  const rows = db
    .prepare('SELECT annotator_id AS id, version, at FROM guidelines_read WHERE dataset_id = ?')
    .all(datasetId) as { id: number; version: number; at: string }[]
  return new Map(rows.map((r) => [r.id, { version: r.version, at: r.at }]))
}

/**
 * Takes what another workspace recorded (a laptop's bundle, the lead's package): kept when this
 * dataset has that version and it is newer than what is recorded here, so a read is never
 * undone by an older report. Says whether it was taken.
 */
export function takeGuidelinesRead(
  db: Db,
  datasetId: number,
  annotatorId: number,
  read: GuidelinesRead,
): boolean {
  if (
    !db.prepare('SELECT 1 FROM guidelines WHERE dataset_id = ? AND version = ?').get(datasetId, read.version)
  )
    return false
  return (
    db
      .prepare(
        `INSERT INTO guidelines_read (dataset_id, annotator_id, version, at) VALUES (?, ?, ?, ?)
         ON CONFLICT (dataset_id, annotator_id) DO UPDATE SET version = excluded.version, at = excluded.at
         WHERE excluded.version > guidelines_read.version`,
      )
      .run(datasetId, annotatorId, read.version, read.at).changes > 0
  )
}
