import { z } from 'zod'
import { DCR_SCHEMA, numericSchema, REFCHECKER_SCHEMA } from '../../../shared/labelSchemas'
import { RowError } from '../errors'
import { at } from '../mapping'
import type { NormItem, NormLabel, NormUnit, PresetOptions, Row, RowConverter } from '../normalized'
import { cellText, toVerdict } from '../text'
import { findColumn } from './flat'

/**
 * Presets whose rows nest their units and labels: SummEval, QAGS-style sentence annotations
 * and RefChecker's triplet annotations. zod checks each nested part and names the field.
 */

function parseField<T extends z.ZodType>(
  row: Row,
  column: string,
  schema: T,
  required = true,
): z.infer<T> | undefined {
  const value = row[column]
  if (value === undefined || value === null) {
    if (required) throw new RowError('missing', column)
    return undefined
  }
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const path = issue.path.length ? `${column}.${issue.path.join('.')}` : column
    throw new RowError(issue.message, path)
  }
  return parsed.data
}

const scalar = z.union([z.string(), z.number(), z.boolean()])

function scalarMetadata(row: Row, skip: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(row)) if (!skip.includes(k) && scalar.safeParse(v).success) out[k] = v
  return out
}

const Annotations = z.array(z.record(z.string(), z.unknown()))

function summevalSource(prefix: string, i: number): string {
  return `SummEval ${prefix} ${i + 1}`
}

export function summeval(columns: readonly string[], options: PresetOptions = {}): RowConverter {
  const dimension = options.dimension ?? 'consistency'
  const article = findColumn(columns, 'text', 'article') ?? 'text'
  const summary = findColumn(columns, 'decoded', 'summary') ?? 'decoded'
  const system = findColumn(columns, 'model_id', 'system', 'system_id') ?? 'model_id'
  const expert = findColumn(columns, 'expert_annotations')
  const crowd = findColumn(columns, 'turker_annotations', 'crowd_annotations')
  // A summary counts as consistent only at the top of the 1–5 scale: any lower score
  // means the annotator found something the article does not support.
  const schema = numericSchema(`summeval-${dimension}`, 1, 5, dimension === 'consistency' ? 5 : 4)
  const labels = (row: Row, column: string | undefined, prefix: string): NormLabel[] => {
    if (!column) return []
    const list = parseField(row, column, Annotations, false) ?? []
    return list.flatMap((a, i) => {
      const raw = a[dimension]
      if (raw === undefined || raw === null) return []
      return [
        {
          annotator: summevalSource(prefix, i),
          verdict: at(`${column}.${i}.${dimension}`, () => toVerdict(schema, raw)),
        },
      ]
    })
  }
  return {
    name: 'summeval',
    labelSchema: schema,
    mapping: null,
    // The release's expert and crowd scores are its reference labels, each rater a source.
    sources: Array.from({ length: 20 }, (_, i) => [
      summevalSource('expert', i),
      summevalSource('crowd', i),
    ]).flat(),
    required: [article, summary, system],
    toItem(row) {
      const text = cellText(row, summary, true)!
      const units: NormUnit[] = [
        { kind: 'whole', text, labels: [...labels(row, expert, 'expert'), ...labels(row, crowd, 'crowd')] },
      ]
      const candidateMeta: Record<string, unknown> = {}
      for (const c of [expert, crowd]) if (c && row[c] !== undefined) candidateMeta[c] = row[c]
      return {
        extId: row.id === undefined ? null : cellText(row, 'id', true),
        question: null,
        reference: cellText(row, article, true)!,
        metadata: {
          ...scalarMetadata(row, [article, summary, system, 'filepath']),
          scoredDimension: dimension,
        },
        candidates: [{ variant: cellText(row, system, true)!, text, metadata: candidateMeta, units }],
        facts: [],
      }
    },
    // SummEval lists each (article, system) pair on its own line, lines of one article together.
    merge(prev, next) {
      if (prev.extId === null || prev.extId !== next.extId) return null
      const variant = next.candidates[0]!.variant
      if (prev.candidates.some((c) => c.variant === variant))
        throw new RowError(`system "${variant}" appears twice for article "${prev.extId}"`, system)
      if (prev.reference !== next.reference)
        throw new RowError(`article "${prev.extId}" has a different text than on its earlier lines`, article)
      return { ...prev, candidates: [...prev.candidates, ...next.candidates] }
    },
  }
}

const SummarySentences = z
  .array(
    z.object({
      sentence: z.string(),
      responses: z
        .array(z.object({ worker_id: z.union([z.string().min(1), z.number()]), response: scalar }))
        .default([]),
    }),
  )
  .min(1, 'no sentences')

/**
 * QAGS: each worker's yes/no is whether the sentence is consistent with the article, DCR's
 * sentence-level question, so the dataset takes DCR's schema (and gets DCR's per-summary
 * scores). The workers are the file's crowd, its reference labels like SummEval's: a source
 * each, never merged into a person of the workspace who has the same name.
 */
export function qags(columns: readonly string[]): RowConverter {
  const article = findColumn(columns, 'article') ?? 'article'
  return {
    name: 'qags',
    labelSchema: DCR_SCHEMA,
    mapping: null,
    required: [article, 'summary_sentences'],
    toItem(row) {
      const sentences = parseField(row, 'summary_sentences', SummarySentences)!
      const units: NormUnit[] = sentences.map((s, i) => ({
        kind: 'sentence',
        text: s.sentence,
        labels: s.responses.map((r, j) => ({
          annotator: String(r.worker_id),
          verdict: at(`summary_sentences.${i}.responses.${j}.response`, () =>
            toVerdict(DCR_SCHEMA, r.response),
          ),
        })),
      }))
      const metadata = scalarMetadata(row, [article, 'summary_sentences'])
      return {
        extId: row.id === undefined ? null : cellText(row, 'id', true),
        question: null,
        reference: cellText(row, article, true)!,
        metadata,
        candidates: [{ variant: 'summary', text: sentences.map((s) => s.sentence.trim()).join(' '), units }],
        facts: [],
        sources: [...new Set(units.flatMap((u) => u.labels.map((l) => l.annotator)))],
      }
    },
  }
}

const Triplets = z.array(
  z.object({
    triplet: z.tuple([z.string(), z.string(), z.string()]),
    human_label: scalar.nullable().optional(),
  }),
)

export interface RefContext {
  question: string | null
  reference: string
}

/** The question and reference of a RefChecker item, from a row of either file. */
export function refContext(row: Row): { question: string | null; reference: string | null } {
  const ref = row.reference ?? row.context ?? row.ref
  const reference = Array.isArray(ref) ? ref.map(String).join('\n\n') : typeof ref === 'string' ? ref : null
  return { question: typeof row.question === 'string' ? row.question : null, reference }
}

/** The name RefChecker's released human labels are kept under. */
const REFCHECKER_SOURCE = 'refchecker'

export function refchecker(
  columns: readonly string[],
  byId: ReadonlyMap<string, RefContext> = new Map(),
): RowConverter {
  const extractors = columns.filter((c) => c.endsWith('_response_kg'))
  return {
    name: 'refchecker',
    labelSchema: REFCHECKER_SCHEMA,
    mapping: null,
    // The release's human labels are its reference, not a person to label as (like WikiEvalFacts').
    sources: [REFCHECKER_SOURCE],
    required: ['id', 'response'],
    toItem(row) {
      const id = cellText(row, 'id', true)!
      const text = cellText(row, 'response', true)!
      const own = refContext(row)
      const other = byId.get(id)
      // RefChecker's released annotation files carry no question and no reference: the triplets
      // and their human labels stand on their own, so the item is kept with an empty reference
      // (the views say "no reference given"). A second file that was given must cover every id.
      const reference = own.reference ?? other?.reference ?? (byId.size ? null : '')
      if (reference === null)
        throw new RowError(`missing here and for id "${id}" in the second file`, 'reference')
      const units: NormUnit[] = extractors.flatMap((col) =>
        (parseField(row, col, Triplets, false) ?? []).map((t, i) => ({
          kind: 'triplet' as const,
          text: t.triplet.join(' '),
          triplet: t.triplet,
          origin: `import:${col.slice(0, -'_response_kg'.length)}`,
          labels:
            t.human_label === undefined || t.human_label === null || t.human_label === ''
              ? []
              : [
                  {
                    annotator: REFCHECKER_SOURCE,
                    verdict: at(`${col}.${i}.human_label`, () => toVerdict(REFCHECKER_SCHEMA, t.human_label)),
                  },
                ],
        })),
      )
      const item: NormItem = {
        extId: id,
        question: own.question ?? other?.question ?? null,
        reference,
        metadata: scalarMetadata(row, ['id', 'response', 'question', 'reference', 'context']),
        candidates: [{ variant: 'response', text, units }],
        facts: [],
      }
      return item
    },
  }
}
