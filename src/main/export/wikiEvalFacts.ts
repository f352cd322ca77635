import { z } from 'zod'
import { Json } from '../../shared/domain'
import type { LabelSchema } from '../../shared/labelSchemas'
import { FACT_LABEL_TEXT } from '../../shared/releaseFactLabels'
import { resolveGold } from '../labels/gold'
import { factTargetsWithLabel } from '../labels/reads'
import type { Db } from '../store/connection'
import { datasetVariants, getDataset } from '../store/repos/datasets'
import { parseJson } from '../store/repos/rows'
import { factsList, flattenFact, pyDict } from './pyLiteral'
import type { Feature, Row } from './targetRows'
import { factKey, itemSpellings, labelsMatchingNoFact, labelText } from './wikiLabelText'

/** The answer types of the FaaF release, in its column order. */
export const WIKIEVAL_VARIANTS = ['answer', 'ungrounded_answer', 'poor_answer'] as const
const TEXT_COLUMNS = ['question', ...WIKIEVAL_VARIANTS, 'context_v1', 'context_v2', 'source'] as const

export interface WikiLayout {
  /** Variants beyond the three of the release (e.g. rewrites) get their own pair of columns. */
  extraVariants: string[]
  /** The item id column, or null when the items are numbered by row as a re-import would number them. */
  idColumn: string | null
  /** The facts column, under the name the imported file gave it. */
  factsColumn: string
  /** The imported file's own spelling of each verdict, where it had one. */
  spellings: Record<string, string>
  features: Feature[]
}

/** Column names as the WikiEvalFacts preset compares them (without case, spaces or punctuation). */
const key = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '')
/** The spellings the preset reads back: any other would make a re-import lose the column. */
const ID_NAMES = ['id', 'itemid']
const FACTS_NAMES = ['gtfacts', 'facts']

const ImportedColumns = z.object({
  id: z.string().optional(),
  facts: z.object({ column: z.string() }).optional(),
})

/**
 * The id and facts columns under the names the dataset's file had (its import mapping), so an
 * export of a release reads like the release. Ids are written whenever the file had them or the
 * items' ids are not their row numbers: a re-import then gives every item the id it has here,
 * and control lines and `--item` keep naming the same items.
 */
function idAndFactColumns(db: Db, datasetId: number): { idColumn: string | null; factsColumn: string } {
  const mapping = ImportedColumns.safeParse(getDataset(db, datasetId).source.mapping).data ?? {}
  const fileId = mapping.id !== undefined && ID_NAMES.includes(key(mapping.id)) ? mapping.id : undefined
  const fileFacts = mapping.facts?.column
  const factsColumn = fileFacts !== undefined && FACTS_NAMES.includes(key(fileFacts)) ? fileFacts : 'gt_facts'
  if (mapping.id !== undefined) return { idColumn: fileId ?? 'id', factsColumn }
  const ids = db
    .prepare('SELECT ext_id FROM items WHERE dataset_id = ? ORDER BY position')
    .pluck()
    .iterate(datasetId) as IterableIterator<string>
  let row = 0
  for (const id of ids) if (id !== String(++row)) return { idColumn: 'id', factsColumn }
  return { idColumn: null, factsColumn }
}

export function wikiLayout(db: Db, datasetId: number): WikiLayout {
  const variants = datasetVariants(db, datasetId)
  const known = new Set<string>(WIKIEVAL_VARIANTS)
  const extraVariants = variants.filter((v) => !known.has(v) && !TEXT_COLUMNS.includes(v as never))
  const { idColumn, factsColumn } = idAndFactColumns(db, datasetId)
  const text = (name: string, description: string): Feature => ({ name, dtype: 'string', description })
  const features: Feature[] = [
    ...(idColumn === null ? [] : [text(idColumn, 'the item id')]),
    text('question', 'the question'),
    text('answer', 'ground-truth answer variant'),
    text('ungrounded_answer', 'answer variant written without the context'),
    text('poor_answer', 'deliberately poor answer variant'),
    text('context_v1', 'context passage (from item metadata, if present)'),
    text('context_v2', 'second context passage (from item metadata, if present)'),
    text('source', 'source of the item (from item metadata, if present)'),
    text(factsColumn, 'facts drawn from question + reference, one "- " line each'),
    ...[...WIKIEVAL_VARIANTS, ...extraVariants].map((v) =>
      text(`human_evaluated_facts_${v}`, `Python dict literal {fact: label} for variant "${v}"`),
    ),
    ...extraVariants.map((v) => text(v, `text of the extra variant "${v}"`)),
  ]
  return { extraVariants, idColumn, factsColumn, spellings: datasetSpellings(db, datasetId), features }
}

/** The spellings the dataset's file used, the first one of each verdict. */
function datasetSpellings(db: Db, datasetId: number): Record<string, string> {
  const found: Record<string, string> = {}
  const rows = db
    .prepare(
      `SELECT metadata FROM items WHERE dataset_id = ? AND json_extract(metadata, '$.${FACT_LABEL_TEXT}') IS NOT NULL
       ORDER BY position`,
    )
    .pluck()
    .iterate(datasetId) as IterableIterator<string>
  for (const meta of rows)
    for (const [verdict, text] of Object.entries(itemSpellings(parseJson(Json, meta, 'items.metadata'))))
      found[verdict] ??= text
  return found
}

/** What a WikiEvalFacts export put in its label dicts. */
export interface WikiWritten {
  /** Verdicts on the items' facts (gold, or the one annotator's). */
  labels: number
  /** Published labels whose key matched no fact, given back as the file had them. */
  matchingNoFact: number
}

/**
 * One row per item in the WikiEvalFacts layout. Labels come from the gold, or from one
 * annotator when `annotator` is given; a fact without a verdict is left out of the dict
 * (the fact itself stays in the facts column). `written` counts what was put in the dicts.
 */
export function* wikiRows(
  db: Db,
  datasetId: number,
  schema: LabelSchema,
  layout: WikiLayout,
  annotator?: { id: number; name: string },
  written: WikiWritten = { labels: 0, matchingNoFact: 0 },
): Generator<Row> {
  const annotatorId = annotator?.id
  const gold = annotatorId === undefined ? resolveGold(db, datasetId) : null
  const candidates = db.prepare('SELECT id, variant, text FROM candidates WHERE item_id = ? ORDER BY id')
  const facts = db.prepare(
    `SELECT id, text FROM units WHERE item_id = ? AND kind = 'fact' AND superseded_by IS NULL
     AND deleted_at IS NULL ORDER BY position, id`,
  )
  const targets = factTargetsWithLabel(db)
  const items = db.prepare(
    'SELECT id, ext_id, question, reference, metadata FROM items WHERE dataset_id = ? ORDER BY position',
  )
  type ItemSql = { id: number; ext_id: string; question: string | null; reference: string; metadata: string }
  for (const item of items.iterate(datasetId) as IterableIterator<ItemSql>) {
    const meta = parseJson(Json, item.metadata, 'items.metadata')
    const cands = candidates.all(item.id) as { id: number; variant: string; text: string }[]
    const itemFacts = facts.all(item.id) as { id: number; text: string }[]
    const verdicts = new Map<string, string>()
    for (const t of targets(annotatorId ?? null, datasetId, item.id)) {
      const v = gold ? (gold.get(t.id)?.verdict ?? null) : t.label
      if (v !== null) verdicts.set(`${t.unit}:${t.candidate}`, v)
    }
    const fromMeta = (key: string) => (typeof meta[key] === 'string' ? (meta[key] as string) : null)
    const byVariant = new Map(cands.map((c) => [c.variant, c]))
    const row: Row = {}
    if (layout.idColumn !== null) row[layout.idColumn] = item.ext_id
    for (const col of TEXT_COLUMNS) {
      if (col === 'question') row.question = item.question ?? fromMeta('question') ?? ''
      else row[col] = byVariant.get(col)?.text ?? fromMeta(col) ?? (col === 'answer' ? item.reference : '')
    }
    row[layout.factsColumn] = factsList(itemFacts.map((f) => f.text))
    const text = labelText(schema, itemSpellings(meta), layout.spellings)
    for (const variant of [...WIKIEVAL_VARIANTS, ...layout.extraVariants]) {
      const cand = byVariant.get(variant)
      const entries: [string, string][] = []
      if (cand)
        for (const f of itemFacts) {
          const v = verdicts.get(`${f.id}:${cand.id}`)
          if (v !== undefined) entries.push([flattenFact(f.text), text(v)])
        }
      written.labels += entries.length
      const labelled = new Set(entries.map(([fact]) => factKey(fact)))
      const kept = labelsMatchingNoFact(meta, variant, annotator?.name ?? null, labelled)
      written.matchingNoFact += kept.length
      row[`human_evaluated_facts_${variant}`] = pyDict([...entries, ...kept])
    }
    for (const variant of layout.extraVariants) row[variant] = byVariant.get(variant)?.text ?? ''
    yield row
  }
}
