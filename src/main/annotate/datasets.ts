import { z } from 'zod'
import type { DatasetSummary, ItemFilter, ItemRow } from '../../shared/contract/datasets'
import type { Viewer } from '../../shared/contract/viewer'
import { ServiceError } from '../app/errors'
import { blindSql } from '../blind'
import { labelledBy } from '../labels/sql'
import { queuePlan } from '../projects/plan'
import { planProgress } from '../projects/progress'
import { planOpenCondition } from '../projects/queue'
import type { Db } from '../store/connection'
import { listAnnotators } from '../store/repos/annotators'
import {
  datasetStats,
  datasetVariants,
  datasetVisible,
  getDataset,
  listDatasets,
} from '../store/repos/datasets'
import { parseJson } from '../store/repos/rows'
import { ftsQuery, MAX_TERMS, matchingItems, searchWords } from './search'
import { wordsContaining } from './vocabulary'

const Variants = z.array(z.string())

/** Current units only: an edited or deleted unit's targets are history, not work to do. */
const CURRENT = 'u.superseded_by IS NULL AND u.deleted_at IS NULL'

const MINE = labelledBy('t.id', '@annotatorId')

/**
 * Open disputes (two annotators differ, no gold row, current unit) of a dataset, as kept by
 * triggers in disputed_targets (alias d): a short index range however large the dataset is.
 * The candidate is joined only to narrow to a variant.
 */
const disputedTargets = (variant: boolean) =>
  variant
    ? `FROM disputed_targets d JOIN candidates c ON c.id = (SELECT candidate_id FROM targets WHERE id = d.target_id)
  WHERE d.dataset_id = @datasetId AND c.variant = @variant`
    : 'FROM disputed_targets d WHERE d.dataset_id = @datasetId'

/**
 * Items with a target where a judge's verdict differs from a human label, from the targets the
 * triggers of migration 0100 keep in judge_disagreements (a short index range, however many
 * verdicts and labels the dataset has).
 */
const JUDGE_DISAGREES_ITEMS = `SELECT j.item_id FROM judge_disagreements j
  JOIN targets t ON t.id = j.target_id JOIN units u ON u.id = t.unit_id JOIN candidates c ON c.id = t.candidate_id
  WHERE j.dataset_id = @datasetId AND ${CURRENT} AND (@variant IS NULL OR c.variant = @variant)`

/**
 * Targets of item `i`, restricted to one candidate variant when @variant is set. The dataset
 * term lets SQLite use the (dataset_id, item_id, candidate_id, …) index instead of scanning
 * every target; with a variant, the item's candidate of it (one at most: UNIQUE (item_id,
 * variant)) is found first, so only its targets are read, not every candidate's.
 */
const itemTargets = (variant: boolean) =>
  variant
    ? `FROM candidates c JOIN targets t ON t.dataset_id = i.dataset_id AND t.item_id = i.id AND t.candidate_id = c.id
  JOIN units u ON u.id = t.unit_id
  WHERE c.item_id = i.id AND c.variant = @variant AND ${CURRENT}`
    : `FROM targets t JOIN units u ON u.id = t.unit_id
  WHERE t.dataset_id = i.dataset_id AND t.item_id = i.id AND ${CURRENT}`

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
  const known = new Map(listAnnotators(db).map((a) => [a.name, a]))
  const labelledBy = Object.entries(stats.labelledBy)
    .map(([name, labelled]) => ({
      annotatorId: known.get(name)?.id ?? -1,
      name,
      labelled,
      source: known.get(name)?.kind === 'source',
    }))
    .sort((a, b) => a.name.localeCompare(b.name))
  const variants = datasetVariants(db, datasetId)
  const disputed = (
    db.prepare(`SELECT COUNT(*) AS n ${disputedTargets(false)}`).get({ datasetId }) as { n: number }
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
    plan: planProgress(db, datasetId),
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
  viewer?: Viewer
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
  const fts = ftsQuery(search, (piece) => wordsContaining(db, piece, MAX_TERMS))
  // A piece of a word that no indexed word contains: nothing can match.
  if (fts === '') where.push('0')
  else if (fts !== null) {
    collectMatches(db, fts, searchWords(search).length === 1)
    where.push('i.id IN (SELECT item_id FROM temp.search_hits)')
  }
  // Only punctuation: no index can help, and ids and questions are where such text is looked for.
  else if (search) where.push(`(i.ext_id LIKE @like ESCAPE '\\' OR i.question LIKE @like ESCAPE '\\')`)
  const hasVariant = 'EXISTS (SELECT 1 FROM candidates c WHERE c.item_id = i.id AND c.variant = @variant)'
  const targetsOfItem = itemTargets(q.filter.variant !== null)
  // While blind, a dispute or a judge's disagreement counts only on targets the viewer labelled.
  const seen = blindSql(db, q.datasetId, q.viewer, 'd.target_id')
  const disputed = `${disputedTargets(q.filter.variant !== null)}${seen ? ` AND ${seen}` : ''}`
  const judgeSeen = blindSql(db, q.datasetId, q.viewer, 'j.target_id')
  const judgeDisagrees = judgeSeen ? `${JUDGE_DISAGREES_ITEMS} AND ${judgeSeen}` : JUDGE_DISAGREES_ITEMS
  if (q.filter.status === 'unlabelled') {
    if (q.annotatorId === null) throw new ServiceError('bad_input', 'Choose who is labelling first')
    // Under a plan, "not yet labelled by me" means work left for me: targets at k are done.
    const plan = queuePlan(db, q.datasetId)
    const open = plan ? ` AND ${planOpenCondition(plan, q.datasetId).replaceAll('@me', '@annotatorId')}` : ''
    // Without a plan, triggers keep which items (migration 0100, item_done) and which candidates
    // (migration 0180, candidate_done) each annotator has finished (annotator 0: nothing to
    // label): one probe per item, not a look at each of its targets. Each test below also says
    // the item has a candidate of the chosen variant.
    where.push(
      plan
        ? `EXISTS (SELECT 1 ${targetsOfItem} AND NOT ${MINE}${open})`
        : q.filter.variant === null
          ? 'NOT EXISTS (SELECT 1 FROM item_done d WHERE d.item_id = i.id AND d.annotator_id IN (0, @annotatorId))'
          : `EXISTS (SELECT 1 FROM candidates c WHERE c.item_id = i.id AND c.variant = @variant
              AND NOT EXISTS (SELECT 1 FROM candidate_done d WHERE d.candidate_id = c.id AND d.annotator_id IN (0, @annotatorId)))`,
    )
  } else {
    if (q.filter.variant !== null) where.push(hasVariant)
    if (q.filter.status === 'disputed') where.push(`i.id IN (SELECT d.item_id ${disputed})`)
    else if (q.filter.status === 'judgeDisagreement') where.push(`i.id IN (${judgeDisagrees})`)
  }

  const params = {
    datasetId: q.datasetId,
    annotatorId: q.annotatorId ?? -1,
    viewerId: q.viewer?.annotatorId ?? -1,
    variant: q.filter.variant,
    like: likePattern(search),
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
      (SELECT COUNT(*) ${targetsOfItem}) AS targets,
      (SELECT COUNT(*) ${targetsOfItem} AND ${MINE}) AS labelledByMe,
      (SELECT COUNT(*) ${disputed} AND d.item_id = i.id) AS disputed
    FROM items i WHERE ${whereSql} ORDER BY i.position LIMIT @limit OFFSET @offset`
  const rows = (
    db.prepare(pageSql).all(used(pageSql)) as (Omit<ItemRow, 'variants'> & { variants: string })[]
  ).map((r) => ({ ...r, variants: parseJson(Variants, r.variants, 'candidates.variant') }))
  return { total, rows }
}

/**
 * Puts the items matching a search in a temporary table. The count and the page both need
 * them, and a word common to most items matches hundreds of thousands of rows: finding them
 * once halves the wait. Temporary tables live in this connection only and never reach the file.
 */
function collectMatches(db: Db, fts: string, oneWord: boolean): void {
  db.exec('CREATE TEMP TABLE IF NOT EXISTS search_hits (item_id INTEGER PRIMARY KEY)')
  db.prepare('DELETE FROM temp.search_hits').run()
  db.prepare(`INSERT OR IGNORE INTO temp.search_hits (item_id) ${matchingItems(oneWord)}`).run({ fts })
}

function datasetSummaryExists(db: Db, datasetId: number): void {
  if (!datasetVisible(db, datasetId)) throw new ServiceError('not_found', `No dataset with id ${datasetId}`)
}
