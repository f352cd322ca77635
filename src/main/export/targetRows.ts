import type { LabelSchema } from '../../shared/labelSchemas'
import { annotatorsWithLabels } from '../labels/reads'
import type { Db } from '../store/connection'
import { type AnnotatorColumn, type Cell, type TargetTally, targetBatches } from './targetColumns'

export type { AnnotatorColumn, Cell } from './targetColumns'
export type Row = Record<string, Cell>

export interface Feature {
  name: string
  dtype: 'string' | 'int32'
  description: string
}

const BASE_FEATURES: Feature[] = [
  { name: 'item_id', dtype: 'string', description: 'external id of the item (as imported)' },
  { name: 'question', dtype: 'string', description: 'the question, if the item has one' },
  { name: 'reference', dtype: 'string', description: 'ground-truth answer / source text' },
  { name: 'variant', dtype: 'string', description: 'candidate variant (answer type) judged' },
  { name: 'candidate', dtype: 'string', description: 'text of the candidate' },
  {
    name: 'unit_kind',
    dtype: 'string',
    description: 'fact, triplet, sentence or whole; empty on the one row of an answer with no units',
  },
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
    name: 'control',
    dtype: 'string',
    description:
      "the known answer of a control item (mixed unmarked into annotators' queues; left out of agreement), else empty",
  },
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
  {
    name: 'source_annotators',
    dtype: 'string',
    description:
      "JSON list of the label columns' annotators that are the dataset's own reference labels (imported with it), not people; the same on every row",
  },
  {
    name: 'dataset_schema',
    dtype: 'string',
    description:
      "the dataset's label schema, the same on every row: a built-in name (faaf, refchecker, dcr, holistic, binary) or its JSON",
  },
  {
    name: 'item_metadata',
    dtype: 'string',
    description:
      "JSON object of the item's metadata as imported (the same on each row of the item), else empty",
  },
  {
    name: 'candidate_metadata',
    dtype: 'string',
    description:
      "JSON object of the candidate's metadata as imported (SummEval: every crowd rating), else empty",
  },
  {
    name: 'gold_rule',
    dtype: 'string',
    description:
      "the dataset's gold rule as JSON, the same on every row; empty for the default (majority of everyone's labels, a tie has no gold)",
  },
  {
    name: 'guidelines',
    dtype: 'string',
    description:
      'JSON list of every guidelines version {version, body, author, created_at}, oldest first; on the first row only (empty on the others, and when there are none)',
  },
  {
    name: 'project_plan',
    dtype: 'string',
    description:
      'JSON of the plan {k, policy, seed, control_rate, hourly_rate, annotators: [{name, hourly_rate}], assignments: {annotator: [item_id]} for a fixed split}; on the first row only (empty on the others, and when no plan was set)',
  },
  {
    name: 'labelled_at',
    dtype: 'string',
    description:
      "JSON object {annotator: time the label was first given}, on targets two or more people labelled (empty on the others): the order that says whose label came past the plan's k",
  },
]

/**
 * The column an annotator's verdicts go in, before a number is added to tell apart names that
 * give the same one ("Ann" and "ann": label_ann, label_ann_2). Letters and digits of every
 * script stay ("Zoë 李": label_zoë_李), so people are told apart by their own names; only what a
 * column name cannot hold well (spaces, punctuation, emoji) becomes `_`. FactLab's import reads
 * the name back from the JSON columns' keys (presets/factlab.ts).
 */
export function labelColumnBase(name: string): string {
  const safe = name
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_]+/gu, '_')
    .replace(/^_+|_+$/g, '')
  return `label_${safe || 'annotator'}`
}

/** Annotators with at least one label in the dataset, each given a safe, unique column name. */
export function annotatorColumns(
  db: Db,
  datasetId: number,
  only?: string,
  range?: readonly [number, number],
): AnnotatorColumn[] {
  const rows = annotatorsWithLabels(db, datasetId, range)
  const chosen = only === undefined ? rows : rows.filter((r) => r.name === only)
  // A label column never takes the name of one of the fixed columns.
  const used = new Set<string>([...BASE_FEATURES, ...TAIL_FEATURES].map((f) => f.name))
  return chosen.map((r) => {
    const base = labelColumnBase(r.name)
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

/**
 * One row per current target in reading order (item, candidate, unit) — the "long" layout —
 * made from the column batches of targetColumns.ts, so a large dataset is never held whole.
 */
export function* targetRows(
  db: Db,
  datasetId: number,
  schema: LabelSchema,
  annotators: readonly AnnotatorColumn[],
  tally?: TargetTally,
  range?: readonly [number, number],
): Generator<Row> {
  const names = targetFeatures(annotators).map((f) => f.name)
  for (const cols of targetBatches(db, datasetId, schema, annotators, tally, range)) {
    const size = cols[0]!.length
    for (let k = 0; k < size; k++) {
      const row: Row = {}
      for (let c = 0; c < names.length; c++) row[names[c]!] = cols[c]![k]!
      yield row
    }
  }
}
