import { Dataset, DatasetSettings, DatasetSource, Json } from '../../../shared/domain'
import { LabelSchema } from '../../../shared/labelSchemas'
import { labelCountsByName } from '../../labels/reads'
import type { Db } from '../connection'
import { now, parseJson } from './rows'

interface DatasetRow {
  id: number
  name: string
  label_schema: string
  source: string
  settings: string
  created_at: string
  /** Absent before migration 0050. */
  state?: string
}

function toDataset(row: DatasetRow): Dataset {
  return Dataset.parse({
    id: row.id,
    name: row.name,
    labelSchema: parseJson(LabelSchema, row.label_schema, 'datasets.label_schema'),
    source: parseJson(DatasetSource, row.source, 'datasets.source'),
    createdAt: row.created_at,
  })
}

export function createDataset(
  db: Db,
  input: { name: string; labelSchema: LabelSchema; source?: DatasetSource },
): Dataset {
  const existing = db.prepare('SELECT id FROM datasets WHERE name = ?').get(input.name)
  if (existing) throw new Error(`A dataset named "${input.name}" already exists`)
  const info = db
    .prepare('INSERT INTO datasets (name, label_schema, source, created_at) VALUES (?, ?, ?, ?)')
    .run(input.name, JSON.stringify(input.labelSchema), JSON.stringify(input.source ?? {}), now())
  return getDataset(db, Number(info.lastInsertRowid))
}

export function getDataset(db: Db, id: number): Dataset {
  const row = db.prepare('SELECT * FROM datasets WHERE id = ?').get(id) as DatasetRow | undefined
  if (!row || !visible(row)) throw new Error(`No dataset with id ${id}`)
  return toDataset(row)
}

/**
 * Whether a call may use this dataset id. A dataset still being imported (migration 0050) is
 * refused like a missing one: anything written into it would go if the import is withdrawn.
 */
export function datasetVisible(db: Db, id: number): boolean {
  const row = db.prepare('SELECT * FROM datasets WHERE id = ?').get(id) as DatasetRow | undefined
  return row !== undefined && visible(row)
}

// SELECT * with a check here, not `state = 'ready'` in SQL: migration tests seed schemas from
// before 0050, which have no state column and where every dataset is visible.
function visible(row: DatasetRow): boolean {
  return row.state !== 'importing'
}

export function findDatasetByName(db: Db, name: string): Dataset | null {
  const row = db.prepare("SELECT * FROM datasets WHERE name = ? AND state = 'ready'").get(name) as
    | DatasetRow
    | undefined
  return row ? toDataset(row) : null
}

export function listDatasets(db: Db): Dataset[] {
  // A dataset still being imported (migration 0050) stays out of sight until it is complete.
  return (db.prepare("SELECT * FROM datasets WHERE state = 'ready' ORDER BY id").all() as DatasetRow[]).map(
    toDataset,
  )
}

export function datasetSettings(db: Db, id: number): DatasetSettings {
  const row = db.prepare('SELECT settings FROM datasets WHERE id = ?').get(id) as
    | { settings: string }
    | undefined
  if (!row) throw new Error(`No dataset with id ${id}`)
  return DatasetSettings.parse(parseJson(Json, row.settings, 'datasets.settings'))
}

/** Changes some of a dataset's settings, keeping the others. */
export function updateDatasetSettings(db: Db, id: number, patch: Partial<DatasetSettings>): DatasetSettings {
  const next = DatasetSettings.parse({ ...datasetSettings(db, id), ...patch })
  db.prepare('UPDATE datasets SET settings = ? WHERE id = ?').run(JSON.stringify(next), id)
  return next
}

export interface DatasetStats {
  datasetId: number
  items: number
  candidates: number
  units: number
  targets: number
  /** Targets labelled, per annotator name. */
  labelledBy: Record<string, number>
}

const CURRENT = 'u.superseded_by IS NULL AND u.deleted_at IS NULL'

/**
 * Progress counts of a dataset, read from the counters that triggers keep (migration 0020):
 * a handful of row reads however large the dataset is.
 */
export function datasetStats(db: Db, id: number): DatasetStats {
  const counts = db
    .prepare('SELECT items, candidates, units, targets FROM dataset_counts WHERE dataset_id = ?')
    .get(id) as Omit<DatasetStats, 'datasetId' | 'labelledBy'> | undefined
  const labelled = db
    .prepare(
      `SELECT a.name AS name, d.labelled AS n FROM dataset_labelled d JOIN annotators a ON a.id = d.annotator_id
       WHERE d.dataset_id = ? AND d.labelled > 0 ORDER BY a.name`,
    )
    .all(id) as { name: string; n: number }[]
  return {
    datasetId: id,
    items: counts?.items ?? 0,
    candidates: counts?.candidates ?? 0,
    units: counts?.units ?? 0,
    targets: counts?.targets ?? 0,
    labelledBy: Object.fromEntries(labelled.map((r) => [r.name, r.n])),
  }
}

/** The same numbers counted from the rows themselves: slow on big datasets; the counters' reference. */
export function recountDatasetStats(db: Db, id: number): DatasetStats {
  const one = (sql: string) => (db.prepare(sql).get(id) as { n: number }).n
  const labelled = labelCountsByName(db, id)
  return {
    datasetId: id,
    items: one('SELECT COUNT(*) AS n FROM items WHERE dataset_id = ?'),
    candidates: one(
      'SELECT COUNT(*) AS n FROM candidates c JOIN items i ON i.id = c.item_id WHERE i.dataset_id = ?',
    ),
    units: one(
      `SELECT COUNT(*) AS n FROM units u JOIN items i ON i.id = u.item_id WHERE i.dataset_id = ? AND ${CURRENT}`,
    ),
    targets: one(
      `SELECT COUNT(*) AS n FROM targets t JOIN units u ON u.id = t.unit_id WHERE t.dataset_id = ? AND ${CURRENT}`,
    ),
    labelledBy: Object.fromEntries(labelled.map((r) => [r.name, r.n])),
  }
}

/**
 * The dataset's variants in its own order, that of each one's first answer (the file's column or
 * file order): dataset_variants keeps each variant's first candidate (triggers of migration 0020).
 */
export function datasetVariants(db: Db, datasetId: number): string[] {
  return db
    .prepare('SELECT variant FROM dataset_variants WHERE dataset_id = ? ORDER BY first_candidate_id')
    .pluck()
    .all(datasetId) as string[]
}
