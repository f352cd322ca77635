import { z } from 'zod'
import { LabelSchema } from './labelSchemas'

/**
 * How the columns of an imported file become items, candidates, units and labels. Shared by
 * the importer (main) and the import wizard (renderer), so it stays pure: zod only.
 */

export const IMPORT_FORMATS = ['jsonl', 'json', 'csv', 'tsv', 'parquet'] as const
export const ImportFormat = z.enum(IMPORT_FORMATS)
export type ImportFormat = z.infer<typeof ImportFormat>

export const PRESET_NAMES = [
  'wikieval',
  'wikievalfacts',
  'mrpc',
  'msrpar',
  'qqp',
  'paws',
  'summeval',
  'qags',
  'refchecker',
  'factlab',
] as const
export const PresetName = z.enum(PRESET_NAMES)
export type PresetName = z.infer<typeof PresetName>

export const PRESET_DESCRIPTIONS: Record<PresetName, string> = {
  wikieval: 'WikiEval: a question, its ground-truth answer and two weaker answers',
  wikievalfacts: 'WikiEvalFacts: WikiEval plus reference facts and per-answer human fact labels',
  mrpc: 'MRPC: sentence pairs with a paraphrase label (tab-separated)',
  msrpar: 'STS MSRpar: sentence pairs with a 0–5 similarity score',
  qqp: 'QQP: question pairs with a duplicate label',
  paws: 'PAWS: sentence pairs with a paraphrase label',
  summeval: 'SummEval: articles, system summaries, expert and crowd scores',
  qags: 'QAGS-style: summary sentences with yes/no answers from several workers',
  refchecker: 'RefChecker: responses with claim triplets and human labels',
  factlab:
    "FactLab's own export (one row per unit and answer): every annotator's labels, gold decisions and control items",
}

const column = z.string().min(1)

/** Where the facts of an item come from, and how one cell holds several of them. */
export const FactSource = z.object({
  column,
  /** dash-list: lines starting with "- "; lines: one per line; list: a JSON or Python list. */
  split: z.enum(['dash-list', 'lines', 'list']).default('dash-list'),
})
export type FactSource = z.infer<typeof FactSource>

/** A column holding one verdict per row, given as the label of a named annotator. */
export const LabelColumn = z.object({
  column,
  annotator: z.string().min(1),
  /** The candidate variant whose `whole` unit the label applies to; the first variant if absent. */
  variant: z.string().min(1).optional(),
})
export type LabelColumn = z.infer<typeof LabelColumn>

/** A column holding `{fact text: verdict}` (JSON or a Python dict literal) for one variant. */
export const FactLabelColumn = z.object({
  column,
  variant: z.string().min(1),
  annotator: z.string().min(1),
})
export type FactLabelColumn = z.infer<typeof FactLabelColumn>

export const Mapping = z.object({
  /** Column with the item id; without it the 1-based row number is the id. */
  id: column.optional(),
  question: column.optional(),
  reference: column,
  candidates: z.array(z.object({ variant: z.string().min(1), column })).default([]),
  facts: FactSource.optional(),
  /** Adds one `whole` unit per candidate (its text is the candidate): pair and score datasets. */
  wholeUnits: z.boolean().default(false),
  /** Verdicts on `whole` units, e.g. a human score or a dataset's own gold label. */
  labels: z.array(LabelColumn).default([]),
  factLabels: z.array(FactLabelColumn).default([]),
  /** Columns holding the gold verdict (or score) of a candidate's `whole` unit, stored as imported gold. */
  gold: z.array(z.object({ column, variant: z.string().min(1).optional() })).default([]),
  /** Columns copied into item metadata as they are. */
  metadata: z.array(column).default([]),
  /** The dataset's label schema; the preset's (or FaaF's) when absent. */
  labelSchema: LabelSchema.optional(),
})
export type Mapping = z.infer<typeof Mapping>
export type MappingInput = z.input<typeof Mapping>

/** Every column a mapping reads, so a file missing one is refused before anything is written. */
export function mappingColumns(m: Mapping): string[] {
  const cols = [
    m.id,
    m.question,
    m.reference,
    ...m.candidates.map((c) => c.column),
    m.facts?.column,
    ...m.labels.map((l) => l.column),
    ...m.factLabels.map((l) => l.column),
    ...m.gold.map((g) => g.column),
    ...m.metadata,
  ]
  return [...new Set(cols.filter((c): c is string => c !== undefined))]
}

/**
 * Why a mapping would import nothing to judge, or null. Answers are what people and judges
 * label: a mapping without an answer column would make a dataset of references alone, which
 * looks imported and can never be labelled, so the importer and the import dialog refuse it alike.
 */
export function mappingGap(m: Pick<Mapping, 'candidates'>): string | null {
  return m.candidates.length === 0
    ? 'The mapping names no answer column, so there would be nothing to judge: choose at least one column under "Answers to judge".'
    : null
}
