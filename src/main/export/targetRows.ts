import { z } from 'zod'
import { EvidenceSpan } from '../../shared/domain'
import { type LabelSchema, toBinary } from '../../shared/labelSchemas'
import { resolveGold } from '../labels/gold'
import { annotatorsWithLabels } from '../labels/reads'
import { labelsJsonOfTarget } from '../labels/sql'
import type { Db } from '../store/connection'
import { parseJson } from '../store/repos/rows'

export type Cell = string | number | null
export type Row = Record<string, Cell>

export interface Feature {
  name: string
  dtype: 'string' | 'int32'
  description: string
}

export interface AnnotatorColumn {
  id: number
  name: string
  column: string
}

const LabelCells = z.array(
  z.object({
    a: z.number().int(),
    v: z.string().nullable(),
    e: z.array(EvidenceSpan),
    n: z.string().nullable(),
    s: z.number().optional(),
    g: z.number().int().nullable().optional(),
  }),
)

const BASE_FEATURES: Feature[] = [
  { name: 'item_id', dtype: 'string', description: 'external id of the item (as imported)' },
  { name: 'question', dtype: 'string', description: 'the question, if the item has one' },
  { name: 'reference', dtype: 'string', description: 'ground-truth answer / source text' },
  { name: 'variant', dtype: 'string', description: 'candidate variant (answer type) judged' },
  { name: 'candidate', dtype: 'string', description: 'text of the candidate' },
  { name: 'unit_kind', dtype: 'string', description: 'fact, triplet, sentence or whole' },
  { name: 'unit_text', dtype: 'string', description: 'text of the unit given a verdict' },
  { name: 'unit_version', dtype: 'int32', description: 'version of the unit (edits make new versions)' },
  { name: 'unit_origin', dtype: 'string', description: 'where the unit came from (import, llm, hand, ...)' },
  { name: 'triplet', dtype: 'string', description: 'JSON [subject, predicate, object] for triplet units' },
]

const TAIL_FEATURES: Feature[] = [
  { name: 'gold', dtype: 'string', description: 'gold verdict (adjudicated, imported, or by the gold rule)' },
  {
    name: 'gold_source',
    dtype: 'string',
    description:
      "adjudicated, import, majority (the gold rule's majority) or annotator (the rule's named annotator)",
  },
  { name: 'gold_binary', dtype: 'string', description: 'gold mapped to supported / unsupported' },
  {
    name: 'evidence',
    dtype: 'string',
    description: 'JSON list of {annotator, pane, start, end, text} evidence spans',
  },
  { name: 'notes', dtype: 'string', description: 'JSON object {annotator: note} of label notes' },
  {
    name: 'active_seconds',
    dtype: 'string',
    description:
      'JSON object {annotator: seconds of active labelling time} (hidden tab and idle time left out)',
  },
  {
    name: 'guidelines_version',
    dtype: 'string',
    description: 'JSON object {annotator: guidelines version the label was given under}',
  },
]

/** Annotators with at least one label in the dataset, each given a safe, unique column name. */
export function annotatorColumns(db: Db, datasetId: number, only?: string): AnnotatorColumn[] {
  const rows = annotatorsWithLabels(db, datasetId)
  const chosen = only === undefined ? rows : rows.filter((r) => r.name === only)
  const used = new Set<string>()
  return chosen.map((r) => {
    const base = `label_${r.name.toLowerCase().replace(/[^a-z0-9_]+/g, '_') || 'annotator'}`
    let column = base
    for (let n = 2; used.has(column); n++) column = `${base}_${n}`
    used.add(column)
    return { id: r.id, name: r.name, column }
  })
}

export function targetFeatures(annotators: readonly AnnotatorColumn[]): Feature[] {
  return [
    ...BASE_FEATURES,
    ...annotators.map(
      (a): Feature => ({ name: a.column, dtype: 'string', description: `verdict of annotator "${a.name}"` }),
    ),
    ...TAIL_FEATURES,
  ]
}

interface TargetSql {
  target_id: number
  ext_id: string
  question: string | null
  reference: string
  variant: string
  candidate: string
  kind: string
  unit_text: string
  version: number
  origin: string
  triplet: string | null
  labels: string
}

/**
 * One row per current target in reading order (item, candidate, unit) — the "long" layout.
 * Rows are produced lazily from a statement iterator so a large dataset is never held whole;
 * only the gold map (numbers and short verdicts per target) is built up front.
 */
export function* targetRows(
  db: Db,
  datasetId: number,
  schema: LabelSchema,
  annotators: readonly AnnotatorColumn[],
): Generator<Row> {
  const gold = resolveGold(db, datasetId)
  const names = new Map(annotators.map((a) => [a.id, a]))
  // Items in position order from their index, targets item by item: only each item's few rows
  // are sorted, and rows stream out at once instead of after a sort of the whole dataset.
  const stmt = db.prepare(
    `SELECT t.id AS target_id, i.ext_id, i.question, i.reference, c.variant, c.text AS candidate,
       u.kind, u.text AS unit_text, u.version, u.origin, u.triplet,
       ${labelsJsonOfTarget('t.id')} AS labels
     FROM items i INDEXED BY items_by_dataset CROSS JOIN targets t ON t.item_id = i.id AND t.dataset_id = i.dataset_id
     JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
     WHERE i.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL
     ORDER BY i.position, c.id, u.kind, u.position, u.id`,
  )
  for (const r of stmt.iterate(datasetId) as IterableIterator<TargetSql>) {
    const row: Row = {
      item_id: r.ext_id,
      question: r.question,
      reference: r.reference,
      variant: r.variant,
      candidate: r.candidate,
      unit_kind: r.kind,
      unit_text: r.unit_text,
      unit_version: r.version,
      unit_origin: r.origin,
      triplet: r.triplet,
    }
    for (const a of annotators) row[a.column] = null
    const evidence: { annotator: string; pane: string; start: number; end: number; text: string }[] = []
    const notes: Record<string, string> = {}
    const seconds: Record<string, number> = {}
    const versions: Record<string, number> = {}
    for (const l of parseJson(LabelCells, r.labels, 'labels')) {
      const a = names.get(l.a)
      if (!a) continue
      row[a.column] = l.v
      if (l.n) notes[a.name] = l.n
      if (l.v !== null && l.s !== undefined) seconds[a.name] = l.s
      if (l.v !== null && l.g !== undefined && l.g !== null) versions[a.name] = l.g
      for (const span of l.e) {
        const source = span.pane === 'reference' ? r.reference : r.candidate
        evidence.push({ annotator: a.name, ...span, text: source.slice(span.start, span.end) })
      }
    }
    const g = gold.get(r.target_id)
    row.gold = g?.verdict ?? null
    row.gold_source = g?.source ?? null
    row.gold_binary = g ? toBinary(schema, g.verdict) : null
    row.evidence = evidence.length ? JSON.stringify(evidence) : null
    row.notes = Object.keys(notes).length ? JSON.stringify(notes) : null
    row.active_seconds = Object.keys(seconds).length ? JSON.stringify(seconds) : null
    row.guidelines_version = Object.keys(versions).length ? JSON.stringify(versions) : null
    yield row
  }
}
