import { Json } from '../../shared/domain'
import type { LabelSchema } from '../../shared/labelSchemas'
import { resolveGold } from '../labels/gold'
import { factTargetsWithLabel } from '../labels/reads'
import type { Db } from '../store/connection'
import { parseJson } from '../store/repos/rows'
import { FAAF_VERDICT_TEXT, factsList, flattenFact, pyDict } from './pyLiteral'
import type { Feature, Row } from './targetRows'

/** The answer types of the FaaF release, in its column order. */
export const WIKIEVAL_VARIANTS = ['answer', 'ungrounded_answer', 'poor_answer'] as const
const TEXT_COLUMNS = ['question', ...WIKIEVAL_VARIANTS, 'context_v1', 'context_v2', 'source'] as const

export interface WikiLayout {
  /** Variants beyond the three of the release (e.g. rewrites) get their own pair of columns. */
  extraVariants: string[]
  features: Feature[]
}

export function wikiLayout(db: Db, datasetId: number): WikiLayout {
  const variants = (
    db
      .prepare(
        `SELECT c.variant FROM candidates c JOIN items i ON i.id = c.item_id WHERE i.dataset_id = ?
         GROUP BY c.variant ORDER BY MIN(c.id)`,
      )
      .all(datasetId) as { variant: string }[]
  ).map((r) => r.variant)
  const known = new Set<string>(WIKIEVAL_VARIANTS)
  const extraVariants = variants.filter((v) => !known.has(v) && !TEXT_COLUMNS.includes(v as never))
  const text = (name: string, description: string): Feature => ({ name, dtype: 'string', description })
  const features: Feature[] = [
    text('question', 'the question'),
    text('answer', 'ground-truth answer variant'),
    text('ungrounded_answer', 'answer variant written without the context'),
    text('poor_answer', 'deliberately poor answer variant'),
    text('context_v1', 'context passage (from item metadata, if present)'),
    text('context_v2', 'second context passage (from item metadata, if present)'),
    text('source', 'source of the item (from item metadata, if present)'),
    text('gt_facts', 'facts drawn from question + reference, one "- " line each'),
    ...[...WIKIEVAL_VARIANTS, ...extraVariants].map((v) =>
      text(`human_evaluated_facts_${v}`, `Python dict literal {fact: label} for variant "${v}"`),
    ),
    ...extraVariants.map((v) => text(v, `text of the extra variant "${v}"`)),
  ]
  return { extraVariants, features }
}

function verdictText(schema: LabelSchema, verdict: string): string {
  return schema.type === 'categorical' && schema.name === 'faaf'
    ? (FAAF_VERDICT_TEXT[verdict] ?? verdict)
    : verdict
}

/**
 * One row per item in the WikiEvalFacts layout. Labels come from the gold, or from one
 * annotator when `annotatorId` is given; a fact without a verdict is left out of the dict
 * (the fact itself stays in `gt_facts`). `written.labels` counts the verdicts put in the dicts.
 */
export function* wikiRows(
  db: Db,
  datasetId: number,
  schema: LabelSchema,
  layout: WikiLayout,
  annotatorId?: number,
  written: { labels: number } = { labels: 0 },
): Generator<Row> {
  const gold = annotatorId === undefined ? resolveGold(db, datasetId) : null
  const candidates = db.prepare('SELECT id, variant, text FROM candidates WHERE item_id = ? ORDER BY id')
  const facts = db.prepare(
    `SELECT id, text FROM units WHERE item_id = ? AND kind = 'fact' AND superseded_by IS NULL
     AND deleted_at IS NULL ORDER BY position, id`,
  )
  const targets = factTargetsWithLabel(db)
  const items = db.prepare(
    'SELECT id, question, reference, metadata FROM items WHERE dataset_id = ? ORDER BY position',
  )
  type ItemSql = { id: number; question: string | null; reference: string; metadata: string }
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
    for (const col of TEXT_COLUMNS) {
      if (col === 'question') row.question = item.question ?? fromMeta('question') ?? ''
      else row[col] = byVariant.get(col)?.text ?? fromMeta(col) ?? (col === 'answer' ? item.reference : '')
    }
    row.gt_facts = factsList(itemFacts.map((f) => f.text))
    for (const variant of [...WIKIEVAL_VARIANTS, ...layout.extraVariants]) {
      const cand = byVariant.get(variant)
      const entries: [string, string][] = []
      if (cand)
        for (const f of itemFacts) {
          const v = verdicts.get(`${f.id}:${cand.id}`)
          if (v !== undefined) entries.push([flattenFact(f.text), verdictText(schema, v)])
        }
      written.labels += entries.length
      row[`human_evaluated_facts_${variant}`] = pyDict(entries)
    }
    for (const variant of layout.extraVariants) row[variant] = byVariant.get(variant)?.text ?? ''
    yield row
  }
}
