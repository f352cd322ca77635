import { z } from 'zod'
import type { Db } from '../store/connection'
import { parseJson } from '../store/repos/rows'
import { datasetContentHash } from './contentHash'

/**
 * Which import a dataset comes from, so that two copies of it (the lead's workspace and a
 * laptop's, or two workspaces that imported one file) are known as one dataset however either
 * was edited since: units edited, split, deleted or added change the content hash, never the
 * origin. The origin is the content hash of the dataset as it was imported; a dataset opened
 * from a work package takes the lead's origin from the package, so both sides name the same one.
 */
const Origin = z.union([
  z.object({ items: z.number().int(), candidates: z.number().int(), units: z.number().int() }),
  z.object({ hash: z.string().regex(/^[0-9a-f]{64}$/) }),
])

const hasColumn = new WeakMap<Db, boolean>()

/** Migration tests fill schemas from before 0240 through today's code, which must then skip this. */
function originKept(db: Db): boolean {
  let has = hasColumn.get(db)
  if (has === undefined) {
    has = (db.prepare('PRAGMA table_info(datasets)').all() as { name: string }[]).some(
      (c) => c.name === 'origin',
    )
    // Only a workspace that has it is worth remembering: an old one gets it when migrated.
    if (has) hasColumn.set(db, has)
  }
  return has
}

/** Remembers, as an import ends, which rows it wrote (cheap: three lookups of the largest id). */
export function recordImportOrigin(db: Db, datasetId: number): void {
  if (!originKept(db)) return
  const max = (table: string) =>
    (db.prepare(`SELECT COALESCE(MAX(id), 0) AS n FROM ${table}`).get() as { n: number }).n
  const origin = { items: max('items'), candidates: max('candidates'), units: max('units') }
  db.prepare('UPDATE datasets SET origin = ? WHERE id = ?').run(JSON.stringify(origin), datasetId)
}

/** A dataset opened from a package comes from the lead's import. */
export function recordPackageOrigin(db: Db, datasetId: number, hash: string): void {
  db.prepare('UPDATE datasets SET origin = ? WHERE id = ?').run(JSON.stringify({ hash }), datasetId)
}

/**
 * A dataset handed out in a package keeps the origin it was first handed out with, also where
 * none was recorded (made before FactLab kept origins, or by a script): every later package then
 * names the same origin, so a laptop knows a refreshed package as its own dataset's.
 */
export function keepOrigin(db: Db, datasetId: number): void {
  if (!originKept(db) || storedOrigin(db, datasetId) !== null) return
  const first = db
    .prepare('SELECT dataset_hash AS h FROM packages WHERE dataset_id = ? ORDER BY created_at, rowid LIMIT 1')
    .get(datasetId) as { h: string } | undefined
  recordPackageOrigin(db, datasetId, first?.h ?? datasetOriginHash(db, datasetId))
}

/**
 * The origin hash of a dataset. Datasets made before FactLab kept origins fall back to the hash
 * of the package they were opened from, or else to their content now (as bundles did before).
 */
export function datasetOriginHash(db: Db, datasetId: number): string {
  return storedOrigin(db, datasetId) ?? openedFrom(db, datasetId) ?? datasetContentHash(db, datasetId)
}

/**
 * Whether a bundle naming these hashes (its origin and its content) was made from this dataset:
 * by its origin, by a package this workspace made of it or opened it from (the hash it had
 * then), or by its content now. The cheap ones are tried first; the content is hashed last.
 */
export function datasetHasOrigin(db: Db, datasetId: number, hashes: readonly string[]): boolean {
  const wanted = new Set(hashes)
  const stored = storedOrigin(db, datasetId)
  if (stored !== null && wanted.has(stored)) return true
  const packages = db
    .prepare(
      `SELECT dataset_hash AS h FROM packages WHERE dataset_id = ?
       UNION SELECT dataset_hash FROM package_opened WHERE dataset_id = ?`,
    )
    .all(datasetId, datasetId) as { h: string }[]
  if (packages.some((p) => wanted.has(p.h))) return true
  return wanted.has(datasetContentHash(db, datasetId))
}

function storedOrigin(db: Db, datasetId: number): string | null {
  const row = db.prepare('SELECT origin FROM datasets WHERE id = ?').get(datasetId) as
    | { origin: string | null }
    | undefined
  if (!row?.origin) return null
  const origin = parseJson(Origin, row.origin, 'datasets.origin')
  return 'hash' in origin ? origin.hash : datasetContentHash(db, datasetId, origin)
}

function openedFrom(db: Db, datasetId: number): string | null {
  const row = db
    .prepare('SELECT dataset_hash AS h FROM package_opened WHERE dataset_id = ?')
    .get(datasetId) as { h: string } | undefined
  return row?.h ?? null
}
