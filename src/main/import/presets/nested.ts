import { z } from 'zod'
import { SOURCES_GOLD_RULE } from '../../../shared/goldRule'
import { DCR_SCHEMA, numericSchema, REFCHECKER_SCHEMA } from '../../../shared/labelSchemas'
import { capitalised, extractorVariant } from '../../../shared/refcheckerExtractors'
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

/** The row's scalar columns but `skip`, and the `keep` columns whatever they hold (SummEval's `references`). */
function scalarMetadata(
  row: Row,
  skip: readonly string[],
  keep: readonly string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(row))
    if (!skip.includes(k) && (scalar.safeParse(v).success || (keep.includes(k) && v !== undefined)))
      out[k] = v
  return out
}

const Annotations = z.array(z.record(z.string(), z.unknown()))

function summevalSource(prefix: string, i: number): string {
  return `SummEval ${prefix} ${i + 1}`
}

/** The dimensions some rating in these lists scores, alphabetically. */
function ratedDimensions(lists: readonly Record<string, unknown>[]): string[] {
  const names = new Set<string>()
  for (const a of lists)
    for (const [k, v] of Object.entries(a)) if (typeof v === 'number' || typeof v === 'string') names.add(k)
  return [...names].sort()
}

/** The rating dimensions SummEval rows score (experts' and crowd's), for the import dialog to offer. */
export function summevalDimensions(columns: readonly string[], rows: readonly Row[]): string[] {
  const lists = [
    findColumn(columns, 'expert_annotations'),
    findColumn(columns, 'turker_annotations', 'crowd_annotations'),
  ]
  const ratings = rows.flatMap((row) =>
    lists.flatMap((c) => (c ? (Annotations.safeParse(row[c]).data ?? []) : [])),
  )
  return ratedDimensions(ratings)
}

/**
 * SummEval's released file rates each summary twice over: three experts, the same three people
 * throughout (`expert_annotations`), and five crowd workers, different workers from summary to
 * summary (`turker_annotations`). The experts are the dataset's sources and its gold (the paper
 * and DCR measure against them). The crowd ratings are not five raters: they stay on the
 * candidate as released (every rating of every dimension), with their mean on the scored
 * dimension beside them, and go out again with the candidate's metadata on export.
 */
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
  const expertLabels = (row: Row): NormLabel[] => {
    if (!expert) return []
    const list = parseField(row, expert, Annotations, false) ?? []
    // A dimension no expert rates is a misspelt or foreign one: imported, the row would carry no gold.
    if (list.length > 0 && list.every((a) => !(dimension in a)))
      throw new RowError(
        `no expert rates "${dimension}" (they rate ${ratedDimensions(list).join(', ') || 'nothing'})`,
        expert,
      )
    return list.flatMap((a, i) => {
      const raw = a[dimension]
      if (raw === undefined || raw === null) return []
      return [
        {
          annotator: summevalSource('expert', i),
          verdict: at(`${expert}.${i}.${dimension}`, () => toVerdict(schema, raw)),
        },
      ]
    })
  }
  /** The crowd's scores on the dimension, each checked against the scale (a bad one names its place). */
  const crowdScores = (row: Row): number[] => {
    if (!crowd) return []
    const list = parseField(row, crowd, Annotations, false) ?? []
    return list.flatMap((a, i) => {
      const raw = a[dimension]
      if (raw === undefined || raw === null) return []
      return [Number(at(`${crowd}.${i}.${dimension}`, () => toVerdict(schema, raw)))]
    })
  }
  return {
    name: 'summeval',
    labelSchema: schema,
    mapping: null,
    // The experts' scores are the release's reference labels, each expert a source.
    sources: Array.from({ length: 20 }, (_, i) => summevalSource('expert', i)),
    goldRule: SOURCES_GOLD_RULE,
    required: [article, summary, system],
    toItem(row) {
      const text = cellText(row, summary, true)!
      const units: NormUnit[] = [{ kind: 'whole', text, labels: expertLabels(row) }]
      const candidateMeta: Record<string, unknown> = {}
      for (const c of [expert, crowd]) if (c && row[c] !== undefined) candidateMeta[c] = row[c]
      const scores = crowdScores(row)
      if (scores.length > 0)
        candidateMeta[`${crowd}_${dimension}_mean`] = scores.reduce((a, b) => a + b, 0) / scores.length
      return {
        extId: row.id === undefined ? null : cellText(row, 'id', true),
        question: null,
        reference: cellText(row, article, true)!,
        metadata: {
          // The reference summaries (which ROUGE-style baselines score against) and the story's
          // file path go out again with the item's metadata on export.
          ...scalarMetadata(row, [article, summary, system], ['references']),
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

const KG = '_response_kg'

function refTriplets(row: Row, extractor: string): { units: NormUnit[]; published: Record<string, string> } {
  const col = `${extractor}${KG}`
  const published: Record<string, string> = {}
  const units = (parseField(row, col, Triplets, false) ?? []).map((t, i): NormUnit => {
    const given = t.human_label === undefined || t.human_label === null || t.human_label === ''
    const verdict = given
      ? null
      : at(`${col}.${i}.human_label`, () => toVerdict(REFCHECKER_SCHEMA, t.human_label))
    // The release's own spelling of a label ("entailment" beside "Entailment") goes back out as given.
    if (verdict !== null && typeof t.human_label === 'string' && t.human_label !== capitalised(verdict))
      published[verdict] ??= t.human_label
    return {
      kind: 'triplet',
      text: t.triplet.join(' '),
      triplet: t.triplet,
      origin: `import:${extractor}`,
      labels: verdict === null ? [] : [{ annotator: REFCHECKER_SOURCE, verdict }],
    }
  })
  return { units, published }
}

export function refchecker(
  columns: readonly string[],
  byId: ReadonlyMap<string, RefContext> = new Map(),
): RowConverter {
  const known = columns.filter((c) => c.endsWith(KG)).map((c) => c.slice(0, -KG.length))
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
      // One candidate per extractor (src/shared/refcheckerExtractors.ts says why): the header's,
      // then any a later row adds; a row with no list at all is an abstention of RefChecker's own
      // extractor (Claude 2 made the released lists).
      const here = Object.keys(row)
        .filter((c) => c.endsWith(KG))
        .map((c) => c.slice(0, -KG.length))
      const extractors = [...new Set([...known, ...here])]
      if (extractors.length === 0) extractors.push('claude2')
      const candidates = extractors.map((extractor) => {
        const { units, published } = refTriplets(row, extractor)
        return {
          variant: extractors.length === 1 ? 'response' : extractorVariant(extractor),
          text,
          metadata: {
            extractor,
            // A response the release lists no triplets for at all is written back without the key.
            ...(here.includes(extractor) ? {} : { listed: false }),
            ...(Object.keys(published).length ? { published_labels: published } : {}),
          },
          units,
        }
      })
      const item: NormItem = {
        extId: id,
        question: own.question ?? other?.question ?? null,
        reference,
        metadata: scalarMetadata(row, ['id', 'response', 'question', 'reference', 'context']),
        candidates,
        facts: [],
      }
      return item
    },
  }
}
