import { z } from 'zod'
import { EvidenceSpan, Triplet } from '../../../shared/domain'
import { GoldRule } from '../../../shared/goldRule'
import { FAAF_SCHEMA, type LabelSchema, UnitKind } from '../../../shared/labelSchemas'
import { parseLabelSchemaText } from '../../../shared/labelSchemaText'
import { GuidelinesCell, PlanCell } from '../../export/projectColumns'
import { labelColumnBase } from '../../export/targetRows'
import { ImportError, RowError } from '../errors'
import type {
  NormFact,
  NormGoldSource,
  NormItem,
  NormLabel,
  NormProject,
  NormTargetExtras,
  Row,
  RowConverter,
} from '../normalized'
import { cellText, toVerdict } from '../text'

/**
 * FactLab's own export in the targets layout (export/targetRows.ts; `factlab export --format
 * jsonl|csv|parquet`): one row per unit and answer, an item's rows one after another. Rows of
 * one item become one item again (`merge`); a fact's rows in each answer become one fact judged
 * in all of them. Each annotator's column becomes their labels under their own name (read back
 * from the keys of the per-annotator JSON columns, since a column name is the name made safe),
 * with notes, active seconds and evidence (a dataset's own reference labels, such as a release's,
 * under a source again rather than a person); adjudicated and imported gold is stored as such, the
 * rest is left to the gold rule; control items become controls again; and the label schema is
 * the one every row states, so the dataset comes back with the same figures. Item and candidate
 * metadata come back from their JSON columns, and the gold rule from `gold_rule` (empty: the
 * default), so gold made by a stated rule is made alike. The guidelines (every version) and the
 * plan stand on the first row (export/projectColumns.ts) and are written once all rows are in;
 * each label keeps the guidelines version it was given under.
 */

/** The columns that say a file is FactLab's own export. */
const SIGNATURE = ['item_id', 'variant', 'candidate', 'unit_kind', 'unit_text', 'gold_source'] as const
const REQUIRED = ['item_id', 'reference', 'variant', 'candidate', 'unit_kind', 'unit_text', 'dataset_schema']
const LABEL_PREFIX = 'label_'

export function detectFactlab(columns: readonly string[]): boolean {
  return SIGNATURE.every((c) => columns.includes(c))
}

const Seconds = z.record(z.string(), z.number().nonnegative())
const Notes = z.record(z.string(), z.string())
const Names = z.array(z.string())
const Spans = z.array(z.object({ annotator: z.string() }).and(EvidenceSpan))
const Metadata = z.record(z.string(), z.unknown())
const Versions = z.record(z.string(), z.number().int().min(1))
/** Label times as the workspace kept them (`now()` writes ISO times). Older exports lack the column. */
const Times = z.record(z.string(), z.string().min(1).max(64))

/** A JSON cell (text in CSV and Parquet, text or JSON in JSON lines), or null when empty. */
function jsonCell<T>(row: Row, column: string, schema: z.ZodType<T>): T | null {
  const raw = row[column]
  if (raw === undefined || raw === null || raw === '') return null
  let value: unknown = raw
  if (typeof raw === 'string')
    try {
      value = JSON.parse(raw)
    } catch {
      throw new RowError('is not JSON', column)
    }
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw new RowError(parsed.error.issues[0]?.message ?? 'unexpected shape', column)
  return parsed.data
}

/** Names in the order SQLite lists them (BINARY: byte by byte), the order columns were numbered in. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))
/** label_ann_2 → [label_ann, 2]; label_ann → [label_ann, 1]. */
function numbered(column: string): [string, number] {
  const m = /^(.*)_(\d+)$/.exec(column)
  return m ? [m[1]!, Number(m[2])] : [column, 1]
}

/** A file picked for the FactLab layout that has none of its export's columns, said plainly. */
function notAnExport(columns: readonly string[]): string {
  const missing = SIGNATURE.filter((c) => !columns.includes(c))
  const has =
    columns.length === 0
      ? 'no columns'
      : `the columns ${columns.slice(0, 8).join(', ')}${columns.length > 8 ? ', …' : ''}`
  return `This file is not a FactLab export: it has ${has}, and a FactLab export has ${missing.join(', ')}. Choose the layout that fits the file, or map its columns yourself.`
}

export function factlabConverter(columns: readonly string[]): RowConverter {
  // Only a file with the export's own columns can be one written by an earlier FactLab.
  if (!detectFactlab(columns)) throw new ImportError(notAnExport(columns))
  if (!columns.includes('dataset_schema'))
    throw new ImportError(
      'This FactLab export has no dataset_schema column: an earlier FactLab wrote it without its label schema. Export the dataset again, then import the new file.',
    )
  const labelColumns = columns.filter((c) => c.startsWith(LABEL_PREFIX))
  /** Each column's annotator, once a row has shown it. */
  const learned = new Map<string, string>()
  const schemas = new Map<string, LabelSchema>()
  /** Per item being merged: how many rows of each variant carried each fact text so far. */
  const factRows = new WeakMap<NormItem, Map<string, Map<string, number>>>()
  /** The dataset-level cells as the first row that holds them gave them (text, then value). */
  const stated = new Map<string, string>()
  let guidelines: GuidelinesCell = []
  let plan: PlanCell | null = null
  const knownVersions = new Set<number>()

  /**
   * Reads the guidelines and plan where a row holds them (the first row, in FactLab's file) and
   * before anything else of the row, so a bad verdict on that row skipped by skip-bad-rows does
   * not take the project with it. A later row may repeat them, never state others.
   */
  const projectCells = (row: Row): void => {
    for (const column of ['guidelines', 'project_plan'] as const) {
      const raw = row[column]
      if (raw === undefined || raw === null || raw === '') continue
      const text = typeof raw === 'string' ? raw : JSON.stringify(raw)
      const earlier = stated.get(column)
      if (earlier !== undefined) {
        if (earlier !== text) throw new RowError(`differs from the one an earlier row states`, column)
        continue
      }
      if (column === 'guidelines') {
        guidelines = jsonCell(row, column, GuidelinesCell) ?? []
        for (const g of guidelines) {
          if (knownVersions.has(g.version)) throw new RowError(`names version ${g.version} twice`, column)
          knownVersions.add(g.version)
        }
      } else plan = jsonCell(row, column, PlanCell)
      stated.set(column, text)
    }
  }

  const schemaOf = (row: Row): LabelSchema => {
    const text = cellText(row, 'dataset_schema', true)!
    let schema = schemas.get(text)
    if (!schema) {
      try {
        schema = parseLabelSchemaText(text)
      } catch (error) {
        throw new RowError((error as Error).message, 'dataset_schema')
      }
      schemas.set(text, schema)
    }
    return schema
  }

  /**
   * Which annotator each labelled column of a row belongs to. The row's names are the keys of
   * its active_seconds (one per verdict given). A column whose name-made-safe only one of them
   * gives is theirs; names that give the same column base ("Ann", "ann": label_ann, label_ann_2)
   * were numbered in name order, so the columns and names left pair off in order. A file
   * without that column keeps the column's own name.
   */
  const annotatorsOf = (row: Row, given: readonly string[]): Map<string, string> => {
    const out = new Map<string, string>()
    const names = Object.keys(jsonCell(row, 'active_seconds', Seconds) ?? {})
    const byBase = new Map<string, string[]>()
    for (const n of names) {
      const base = labelColumnBase(n)
      byBase.set(base, [...(byBase.get(base) ?? []), n])
    }
    const leftColumns: string[] = []
    const taken = new Set<string>()
    for (const c of given) {
      const only = byBase.get(c)
      if (only?.length === 1 && !given.some((o) => o !== c && numbered(o)[0] === c)) {
        out.set(c, only[0]!)
        taken.add(only[0]!)
      } else leftColumns.push(c)
    }
    const leftNames = names.filter((n) => !taken.has(n)).sort(byBytes)
    if (leftColumns.length === leftNames.length) {
      leftColumns.sort((a, b) => {
        const [ba, na] = numbered(a)
        const [bb, nb] = numbered(b)
        return ba === bb ? na - nb : byBytes(ba, bb)
      })
      leftColumns.forEach((c, i) => {
        out.set(c, leftNames[i]!)
      })
    } else for (const c of leftColumns) out.set(c, learned.get(c) ?? c.slice(LABEL_PREFIX.length))
    for (const [c, n] of out) learned.set(c, n)
    return out
  }

  const labelsOf = (row: Row, schema: LabelSchema): NormLabel[] => {
    const given = labelColumns.filter((c) => {
      const v = row[c]
      return v !== undefined && v !== null && v !== ''
    })
    if (given.length === 0) return []
    const who = annotatorsOf(row, given)
    const seconds = jsonCell(row, 'active_seconds', Seconds) ?? {}
    const notes = jsonCell(row, 'notes', Notes) ?? {}
    const spans = jsonCell(row, 'evidence', Spans) ?? []
    // A version the file's guidelines do not hold (a file without them) is left out: a label never
    // names guidelines the workspace does not have.
    const versions = knownVersions.size > 0 ? (jsonCell(row, 'guidelines_version', Versions) ?? {}) : {}
    const times = jsonCell(row, 'labelled_at', Times) ?? {}
    return given.map((c) => {
      const annotator = who.get(c)!
      const label: NormLabel = { annotator, verdict: verdictIn(schema, row, c) }
      if (notes[annotator] !== undefined) label.note = notes[annotator]
      if (seconds[annotator] !== undefined) label.seconds = seconds[annotator]
      const version = versions[annotator]
      if (version !== undefined && knownVersions.has(version)) label.guidelinesVersion = version
      if (times[annotator] !== undefined) label.placedAt = times[annotator]
      const own = spans.filter((s) => s.annotator === annotator)
      if (own.length > 0) label.evidence = own.map(({ pane, start, end }) => ({ pane, start, end }))
      return label
    })
  }

  const extrasOf = (row: Row, schema: LabelSchema): NormTargetExtras => {
    const x: NormTargetExtras = {}
    const source = cellText(row, 'gold_source', false)
    // Gold the rule made (majority, a named annotator) is made again by the rule: only what
    // was decided or imported is stored.
    if (source === 'adjudicated' || source === 'import') {
      const gold = cellText(row, 'gold', false)
      if (gold !== null) {
        x.gold = verdictIn(schema, row, 'gold')
        x.goldSource = source satisfies NormGoldSource
      }
    }
    if (cellText(row, 'control', false) !== null) x.control = verdictIn(schema, row, 'control')
    return x
  }

  return {
    name: 'factlab',
    // A stand-in until the first item is written: the rows' dataset_schema replaces it
    // (NormItem.labelSchema, import/sink.ts).
    labelSchema: FAAF_SCHEMA,
    required: REQUIRED,
    mapping: null,
    project(): NormProject | null {
      const p = plan as PlanCell | null
      if (guidelines.length === 0 && !p) return null
      return {
        guidelines: guidelines.map((g) => ({
          version: g.version,
          body: g.body,
          author: g.author,
          createdAt: g.created_at,
        })),
        plan: p && {
          k: p.k,
          policy: p.policy,
          seed: p.seed,
          controlRate: p.control_rate,
          hourlyRate: p.hourly_rate,
          annotators: p.annotators.map((a) => ({ name: a.name, hourlyRate: a.hourly_rate })),
          ...(p.assignments ? { assignments: p.assignments } : {}),
        },
      }
    },
    toItem(row: Row): NormItem {
      projectCells(row)
      const schema = schemaOf(row)
      const variant = cellText(row, 'variant', true)!
      const candidateMetadata = jsonCell(row, 'candidate_metadata', Metadata)
      const goldRule = jsonCell(row, 'gold_rule', GoldRule)
      const item: NormItem = {
        extId: cellText(row, 'item_id', true),
        question: cellText(row, 'question', false),
        reference: cellText(row, 'reference', false) ?? '',
        metadata: jsonCell(row, 'item_metadata', Metadata) ?? {},
        candidates: [
          {
            variant,
            text: cellText(row, 'candidate', false) ?? '',
            units: [],
            ...(candidateMetadata ? { metadata: candidateMetadata } : {}),
          },
        ],
        facts: [],
        labelSchema: schema,
        sources: jsonCell(row, 'source_annotators', Names) ?? [],
        ...(goldRule ? { goldRule } : {}),
      }
      const kindText = cellText(row, 'unit_kind', false)
      // An answer with no units has one row with the unit columns empty.
      if (kindText === null) return item
      const kind = UnitKind.safeParse(kindText)
      if (!kind.success)
        throw new RowError(`"${kindText}" is not fact, triplet, sentence or whole`, 'unit_kind')
      const text = cellText(row, 'unit_text', true)!
      const origin = cellText(row, 'unit_origin', false) ?? undefined
      const labels = labelsOf(row, schema)
      const extras = extrasOf(row, schema)
      if (kind.data === 'fact') {
        item.facts.push({
          text,
          ...(origin ? { origin } : {}),
          labels: labels.map((l) => ({ ...l, variant })),
          targets: [{ variant, ...extras }],
        })
        factRows.set(item, new Map([[variant, new Map([[text, 1]])]]))
      } else {
        const triplet = kind.data === 'triplet' ? jsonCell(row, 'triplet', Triplet) : null
        item.candidates[0]!.units.push({
          kind: kind.data,
          text,
          ...(triplet ? { triplet } : {}),
          ...(origin ? { origin } : {}),
          labels,
          ...extras,
        })
      }
      return item
    },
    merge(prev: NormItem, next: NormItem): NormItem | null {
      if (next.extId !== prev.extId) return null
      if (next.question !== prev.question || next.reference !== prev.reference)
        throw new RowError(
          `item "${prev.extId}" has another question or reference than on its earlier rows`,
          next.question !== prev.question ? 'question' : 'reference',
        )
      const cand = next.candidates[0]!
      const same = prev.candidates.find((c) => c.variant === cand.variant)
      if (!same) prev.candidates.push(cand)
      else if (same.text !== cand.text)
        throw new RowError(
          `answer "${cand.variant}" of item "${prev.extId}" differs from its earlier rows`,
          'candidate',
        )
      else same.units.push(...cand.units)
      const fact = next.facts[0]
      if (fact) mergeFact(prev, fact, cand.variant)
      return prev
    },
  }

  /**
   * A fact row joins the fact of the same text its answer's rows reached: the n-th row of an
   * answer with a text is the n-th fact with that text, so two facts worded alike stay two.
   */
  function mergeFact(item: NormItem, fact: NormFact, variant: string): void {
    const seen = factRows.get(item) ?? new Map<string, Map<string, number>>()
    factRows.set(item, seen)
    const inVariant = seen.get(variant) ?? new Map<string, number>()
    seen.set(variant, inVariant)
    const n = inVariant.get(fact.text) ?? 0
    inVariant.set(fact.text, n + 1)
    const match = item.facts.filter((f) => f.text === fact.text)[n]
    if (!match) {
      item.facts.push(fact)
      return
    }
    match.labels.push(...fact.labels)
    match.targets = [...(match.targets ?? []), ...(fact.targets ?? [])]
  }
}

function verdictIn(schema: LabelSchema, row: Row, column: string): string {
  try {
    return toVerdict(schema, row[column])
  } catch (error) {
    if (error instanceof RowError) throw new RowError(error.message, column)
    throw error
  }
}
