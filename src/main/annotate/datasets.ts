import { z } from 'zod'
import type { DatasetSummary, ItemFilter, ItemRow } from '../../shared/contract/datasets'
import { ServiceError } from '../rpc/dispatch'
import type { Db } from '../store/connection'
import { listAnnotators } from '../store/repos/annotators'
import { datasetStats, getDataset, listDatasets } from '../store/repos/datasets'
import { parseJson } from '../store/repos/rows'
import { ftsQuery, MATCHING_ITEMS } from './search'

const Variants = z.array(z.string())

/** Current units only: an edited or deleted unit's targets are history, not work to do. */
const CURRENT = 'u.superseded_by IS NULL AND u.deleted_at IS NULL'

/** No gold row settles target t. */
const NO_GOLD = 'NOT EXISTS (SELECT 1 FROM gold g WHERE g.target_id = t.id)'

const MINE = `EXISTS (SELECT 1 FROM labels l WHERE l.target_id = t.id AND l.annotator_id = @annotatorId
  AND l.verdict IS NOT NULL)`

/**
 * Targets (alias t) of a dataset where two annotators gave different verdicts and no gold row
 * settles it. disputed_targets (kept by triggers) holds only targets with differing verdicts,
 * so this reads a few rows however many targets the dataset has.
 */
const DISPUTED_TARGETS = `FROM disputed_targets d CROSS JOIN targets t ON t.id = d.target_id
  CROSS JOIN units u ON u.id = t.unit_id CROSS JOIN candidates c ON c.id = t.candidate_id
  WHERE d.dataset_id = @datasetId AND ${CURRENT} AND ${NO_GOLD}`

/** The same for one item `i`, for its row in the table. */
const ITEM_DISPUTED = `FROM disputed_targets d CROSS JOIN targets t ON t.id = d.target_id
  CROSS JOIN units u ON u.id = t.unit_id CROSS JOIN candidates c ON c.id = t.candidate_id
  WHERE d.dataset_id = i.dataset_id AND d.item_id = i.id AND ${CURRENT} AND ${NO_GOLD}
    AND (@variant IS NULL OR c.variant = @variant)`

/** Items with a target where a judge's verdict differs from a human label, from the dataset's runs. */
const JUDGE_DISAGREES_ITEMS = `SELECT t.item_id FROM runs r JOIN verdicts v ON v.run_id = r.id
  JOIN labels l ON l.target_id = v.target_id JOIN targets t ON t.id = v.target_id
  JOIN units u ON u.id = t.unit_id JOIN candidates c ON c.id = t.candidate_id
  WHERE r.dataset_id = @datasetId AND v.status = 'ok' AND l.verdict IS NOT NULL AND v.verdict <> l.verdict
    AND ${CURRENT} AND (@variant IS NULL OR c.variant = @variant)`

/**
 * Targets of item `i`, restricted to one candidate variant when @variant is set. The dataset
 * term lets SQLite use the (dataset_id, item_id, …) index instead of scanning every target.
 */
const ITEM_TARGETS = `FROM targets t JOIN units u ON u.id = t.unit_id JOIN candidates c ON c.id = t.candidate_id
  WHERE t.dataset_id = i.dataset_id AND t.item_id = i.id AND ${CURRENT} AND (@variant IS NULL OR c.variant = @variant)`

export function datasetVariants(db: Db, datasetId: number): string[] {
  return (
    db
      .prepare(
        `SELECT c.variant AS v, MIN(c.id) AS first FROM candidates c JOIN items i ON i.id = c.item_id
         WHERE i.dataset_id = ? GROUP BY c.variant ORDER BY first`,
      )
      .all(datasetId) as { v: string }[]
  ).map((r) => r.v)
}

export function datasetBrief(db: Db, datasetId: number) {
  let dataset: ReturnType<typeof getDataset>
  try {
    dataset = getDataset(db, datasetId)
  } catch {
    throw new ServiceError('not_found', `No dataset with id ${datasetId}`)
  }
  return {
    id: dataset.id,
    name: dataset.name,
    labelSchema: dataset.labelSchema,
    variants: datasetVariants(db, datasetId),
  }
}

export function datasetSummary(db: Db, datasetId: number): DatasetSummary {
  let dataset: ReturnType<typeof getDataset>
  try {
    dataset = getDataset(db, datasetId)
  } catch {
    throw new ServiceError('not_found', `No dataset with id ${datasetId}`)
  }
  const stats = datasetStats(db, datasetId)
  // datasetStats counts by name; names are unique, so the ids come from the annotator list.
  const ids = new Map(listAnnotators(db).map((a) => [a.name, a.id]))
  const labelledBy = Object.entries(stats.labelledBy)
    .map(([name, labelled]) => ({ annotatorId: ids.get(name) ?? -1, name, labelled }))
    .sort((a, b) => a.name.localeCompare(b.name))
  const variants = datasetVariants(db, datasetId)
  const disputed = (
    db.prepare(`SELECT COUNT(*) AS n ${DISPUTED_TARGETS}`).get({ datasetId }) as { n: number }
  ).n
  return {
    id: dataset.id,
    name: dataset.name,
    labelSchema: dataset.labelSchema,
    source: dataset.source,
    createdAt: dataset.createdAt,
    items: stats.items,
    candidates: stats.candidates,
    units: stats.units,
    targets: stats.targets,
    variants,
    labelledBy,
    disputed,
  }
}

export function listDatasetSummaries(db: Db): DatasetSummary[] {
  return listDatasets(db).map((d) => datasetSummary(db, d.id))
}

export interface ItemsQuery {
  datasetId: number
  annotatorId: number | null
  filter: ItemFilter
  offset: number
  limit: number
}

function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/**
 * One page of items with per-item progress. Filters are EXISTS tests over the item's targets
 * so a 100k-item dataset is scanned by index, and only the page's rows get counted in full.
 */
export function queryItems(db: Db, q: ItemsQuery): { total: number; rows: ItemRow[] } {
  datasetSummaryExists(db, q.datasetId)
  const where = ['i.dataset_id = @datasetId']
  const search = q.filter.search.trim()
  const fts = ftsQuery(search)
  if (fts !== null) where.push(`i.id IN (${MATCHING_ITEMS})`)
  // Only punctuation: no index can help, and ids and questions are where such text is looked for.
  else if (search) where.push(`(i.ext_id LIKE @like ESCAPE '\\' OR i.question LIKE @like ESCAPE '\\')`)
  if (q.filter.variant !== null)
    where.push('EXISTS (SELECT 1 FROM candidates c WHERE c.item_id = i.id AND c.variant = @variant)')
  if (q.filter.status === 'unlabelled') {
    if (q.annotatorId === null) throw new ServiceError('bad_input', 'Choose who is labelling first')
    where.push(`EXISTS (SELECT 1 ${ITEM_TARGETS} AND NOT ${MINE})`)
  } else if (q.filter.status === 'disputed')
    where.push(
      `i.id IN (SELECT d.item_id ${DISPUTED_TARGETS} AND (@variant IS NULL OR c.variant = @variant))`,
    )
  else if (q.filter.status === 'judgeDisagreement') where.push(`i.id IN (${JUDGE_DISAGREES_ITEMS})`)

  const params = {
    datasetId: q.datasetId,
    annotatorId: q.annotatorId ?? -1,
    variant: q.filter.variant,
    like: likePattern(search),
    fts,
    limit: q.limit,
    offset: q.offset,
  }
  const whereSql = where.join(' AND ')
  const used = (sql: string) =>
    Object.fromEntries(Object.entries(params).filter(([k]) => new RegExp(`@${k}\\b`).test(sql)))
  const countSql = `SELECT COUNT(*) AS n FROM items i WHERE ${whereSql}`
  const total = (db.prepare(countSql).get(used(countSql)) as { n: number }).n
  const pageSql = `SELECT i.id AS itemId, i.ext_id AS extId, i.position, i.question,
      substr(i.reference, 1, 240) AS referencePreview,
      (SELECT json_group_array(variant) FROM (SELECT variant FROM candidates WHERE item_id = i.id ORDER BY id)) AS variants,
      (SELECT COUNT(*) ${ITEM_TARGETS}) AS targets,
      (SELECT COUNT(*) ${ITEM_TARGETS} AND ${MINE}) AS labelledByMe,
      (SELECT COUNT(*) ${ITEM_DISPUTED}) AS disputed
    FROM items i WHERE ${whereSql} ORDER BY i.position LIMIT @limit OFFSET @offset`
  const rows = (
    db.prepare(pageSql).all(used(pageSql)) as (Omit<ItemRow, 'variants'> & { variants: string })[]
  ).map((r) => ({ ...r, variants: parseJson(Variants, r.variants, 'candidates.variant') }))
  return { total, rows }
}

function datasetSummaryExists(db: Db, datasetId: number): void {
  if (!db.prepare('SELECT 1 FROM datasets WHERE id = ?').get(datasetId))
    throw new ServiceError('not_found', `No dataset with id ${datasetId}`)
}
