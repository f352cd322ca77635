import { Mapping } from '../../../shared/importMapping'
import { BINARY_SCHEMA, FAAF_SCHEMA, numericSchema } from '../../../shared/labelSchemas'
import { mappingConverter } from '../mapping'
import type { Row, RowConverter } from '../normalized'
import { cellText } from '../text'

/**
 * Presets whose files are one flat row per item: WikiEval, WikiEvalFacts and the sentence-pair
 * sets. Each finds its columns under the spellings the public releases use.
 */

/** Column names compared without case, spaces or punctuation ("Sentence 1" = "sentence1"). */
export function columnKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '')
}

export function findColumn(columns: readonly string[], ...aliases: string[]): string | undefined {
  const wanted = aliases.map(columnKey)
  for (const w of wanted) {
    const hit = columns.find((c) => columnKey(c) === w)
    if (hit !== undefined) return hit
  }
  return undefined
}

export interface FlatPreset {
  detect(columns: readonly string[]): boolean
  build(columns: readonly string[]): RowConverter
}

const WIKIEVAL_VARIANTS = ['answer', 'ungrounded_answer', 'poor_answer'] as const
const WIKIEVAL_META = ['context_v1', 'context_v2', 'source']

function wikievalMapping(columns: readonly string[]) {
  // The releases have no id column (rows are numbered); a file that adds one keeps its ids, so
  // controls and CLI lines can name items as the file does.
  const id = findColumn(columns, 'id', 'item_id')
  return {
    ...(id !== undefined ? { id } : {}),
    question: findColumn(columns, 'question') ?? 'question',
    // The ground-truth answer is both the reference and a candidate: FaaF judges every variant.
    reference: findColumn(columns, 'answer') ?? 'answer',
    candidates: WIKIEVAL_VARIANTS.map((v) => ({ variant: v, column: findColumn(columns, v) ?? v })),
    metadata: WIKIEVAL_META.map((m) => findColumn(columns, m)).filter((m): m is string => m !== undefined),
  }
}

export const wikieval: FlatPreset = {
  detect: (cols) => WIKIEVAL_VARIANTS.every((v) => findColumn(cols, v)) && !!findColumn(cols, 'question'),
  build: (cols) =>
    mappingConverter(
      Mapping.parse({ ...wikievalMapping(cols), labelSchema: FAAF_SCHEMA }),
      FAAF_SCHEMA,
      'wikieval',
    ),
}

const FACT_LABEL_PREFIX = 'humanevaluatedfacts'

export const wikievalfacts: FlatPreset = {
  detect: (cols) => wikieval.detect(cols) && !!findColumn(cols, 'gt_facts', 'facts'),
  build(cols) {
    const factLabels = WIKIEVAL_VARIANTS.flatMap((variant) => {
      const column = cols.find((c) => columnKey(c) === FACT_LABEL_PREFIX + columnKey(variant))
      return column ? [{ column, variant, annotator: 'wikievalfacts' }] : []
    })
    const mapping = Mapping.parse({
      ...wikievalMapping(cols),
      facts: { column: findColumn(cols, 'gt_facts', 'facts')!, split: 'dash-list' },
      factLabels,
      labelSchema: FAAF_SCHEMA,
    })
    // The released labels are the dataset's own reference, not a person to label as.
    const converter = mappingConverter(mapping, FAAF_SCHEMA, 'wikievalfacts')
    return factLabels.length > 0 ? { ...converter, sources: ['wikievalfacts'] } : converter
  },
}

/** What each pair set's second text is, and the name its own labels are kept under. */
const PAIRS = {
  mrpc: { variant: 'paraphrase', source: 'MRPC quality' },
  msrpar: { variant: 'paraphrase', source: 'MSRpar similarity' },
  qqp: { variant: 'paired question', source: 'QQP duplicate flag' },
  paws: { variant: 'paraphrase', source: 'PAWS paraphrase flag' },
} as const

/** Columns of a pair file kept with the item as they are (compared as `columnKey` spells them). */
const PAIR_META = ['genre', 'source', 'qid1', 'qid2']

/**
 * Sentence pairs: sentence 1 is the reference, sentence 2 the one candidate, judged whole. The
 * candidate is named for what it is (a paraphrase), the file's column kept in its metadata; the
 * set's own label is kept under a named source, not a person.
 */
function pairConverter(
  name: 'mrpc' | 'msrpar' | 'qqp' | 'paws',
  cols: readonly string[],
  s1: string,
  s2: string,
  label: string,
  ids: string[],
): RowConverter {
  const schema = name === 'msrpar' ? numericSchema('msrpar', 0, 5, 3) : BINARY_SCHEMA
  const { variant, source } = PAIRS[name]
  const mapping = Mapping.parse({
    id: ids.length === 1 ? ids[0] : undefined,
    reference: s1,
    candidates: [{ variant, column: s2 }],
    wholeUnits: true,
    labels: [{ column: label, annotator: source, variant }],
    // QQP's question ids (qid1, qid2) tell which pairs share a question, so they stay with the pair.
    metadata: [label, ...ids, ...cols.filter((c) => PAIR_META.includes(columnKey(c)))],
    labelSchema: schema,
  })
  const mapped = mappingConverter(mapping, schema, name)
  const base = {
    ...mapped,
    sources: [source],
    toItem(row: Row) {
      const item = mapped.toItem(row)
      for (const c of item.candidates) c.metadata = { ...c.metadata, column: s2 }
      return item
    },
  }
  if (ids.length < 2) return { ...base, required: [...base.required, label] }
  return {
    ...base,
    required: [...base.required, label, ...ids],
    toItem(row) {
      const item = base.toItem(row)
      // MRPC names a pair by the ids of both its sentences.
      item.extId = ids.map((c) => cellText(row, c, true)).join('-')
      return item
    },
  }
}

export const mrpc: FlatPreset = {
  detect: (cols) =>
    !!findColumn(cols, 'Quality') && !!findColumn(cols, '#1 String') && !!findColumn(cols, '#2 String'),
  build: (cols) =>
    pairConverter(
      'mrpc',
      cols,
      findColumn(cols, '#1 String')!,
      findColumn(cols, '#2 String')!,
      findColumn(cols, 'Quality')!,
      [findColumn(cols, '#1 ID'), findColumn(cols, '#2 ID')].filter((c): c is string => c !== undefined),
    ),
}

const S1 = ['sentence1', 'sentence 1', 'string1', 'text1']
const S2 = ['sentence2', 'sentence 2', 'string2', 'text2']

export const msrpar: FlatPreset = {
  detect: (cols) =>
    !!findColumn(cols, ...S1) && !!findColumn(cols, ...S2) && !!findColumn(cols, 'score', 'similarity_score'),
  build: (cols) =>
    pairConverter(
      'msrpar',
      cols,
      findColumn(cols, ...S1)!,
      findColumn(cols, ...S2)!,
      findColumn(cols, 'score', 'similarity_score')!,
      [findColumn(cols, 'id', 'idx')].filter((c): c is string => c !== undefined),
    ),
}

export const qqp: FlatPreset = {
  detect: (cols) =>
    !!findColumn(cols, 'question1') &&
    !!findColumn(cols, 'question2') &&
    !!findColumn(cols, 'is_duplicate', 'label'),
  build: (cols) =>
    pairConverter(
      'qqp',
      cols,
      findColumn(cols, 'question1')!,
      findColumn(cols, 'question2')!,
      findColumn(cols, 'is_duplicate', 'label')!,
      [findColumn(cols, 'id', 'idx')].filter((c): c is string => c !== undefined),
    ),
}

export const paws: FlatPreset = {
  detect: (cols) => !!findColumn(cols, ...S1) && !!findColumn(cols, ...S2) && !!findColumn(cols, 'label'),
  build: (cols) =>
    pairConverter(
      'paws',
      cols,
      findColumn(cols, ...S1)!,
      findColumn(cols, ...S2)!,
      findColumn(cols, 'label')!,
      [findColumn(cols, 'id', 'idx')].filter((c): c is string => c !== undefined),
    ),
}
