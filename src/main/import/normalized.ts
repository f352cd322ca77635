import type { EvidenceSpan, Triplet } from '../../shared/domain'
import type { GoldRule } from '../../shared/goldRule'
import type { Mapping, PresetName } from '../../shared/importMapping'
import type { LabelSchema } from '../../shared/labelSchemas'

/**
 * The shape every importer reduces a row to before anything is written: pure data, validated
 * (verdicts already in the schema's values), so a bad row is refused before it touches the store.
 */

export interface NormLabel {
  annotator: string
  verdict: string
  /** What the label carried beside its verdict, where a file keeps it (FactLab's own export). */
  note?: string
  seconds?: number
  evidence?: EvidenceSpan[]
  /** The guidelines version it was given under (FactLab's own export, with those guidelines). */
  guidelinesVersion?: number
  /** When it was first given (FactLab's own export): the order of a target's labels, past k. */
  placedAt?: string
}

/**
 * A dataset's annotation project as FactLab's own export carries it: every guidelines version and
 * the plan, written once every row is in (import/projectWriter.ts).
 */
export interface NormProject {
  guidelines: { version: number; body: string; author: string | null; createdAt: string }[]
  plan: {
    k: number
    policy: 'open' | 'fixed'
    seed: number
    controlRate: number
    hourlyRate: number | null
    annotators: { name: string; hourlyRate: number | null }[]
    /** Fixed policy: each annotator's items by external id. */
    assignments?: Record<string, string[]>
  } | null
}

/** Where stored gold came from: with the data (the default), or an adjudicator's decision. */
export type NormGoldSource = 'import' | 'adjudicated'

/** What one target of a unit carries besides labels (FactLab's own export keeps both). */
export interface NormTargetExtras {
  /** Stored gold, overriding the gold rule. */
  gold?: string
  goldSource?: NormGoldSource
  /** The known answer when the target is a control item. */
  control?: string
}

export interface NormUnit extends NormTargetExtras {
  kind: 'triplet' | 'sentence' | 'whole'
  text: string
  triplet?: Triplet
  origin?: string
  labels: NormLabel[]
  /** Gold that came with the data (stored as imported gold, overriding the majority). */
  gold?: string
}

export interface NormCandidate {
  variant: string
  text: string
  metadata?: Record<string, unknown>
  units: NormUnit[]
}

export interface NormFact {
  text: string
  origin?: string
  /** Verdicts on this fact in a given candidate variant. */
  labels: (NormLabel & { variant: string })[]
  /** Stored gold and control answers of the fact's target in a given variant. */
  targets?: (NormTargetExtras & { variant: string })[]
}

/** A key of a `{fact: verdict}` label dict that matched none of the item's facts. */
export interface UnmatchedKey {
  variant: string
  /** The column the dict is in. */
  column: string
  key: string
  /** Whose label the dict gave, and its text as written: kept with the item. */
  annotator: string
  label: string
}

/** A fact that a label dict of one variant gave no verdict: left unlabelled there. */
export interface UnlabelledFact {
  variant: string
  column: string
  fact: string
}

export interface NormItem {
  /** null: the importer numbers the item by its line/row. */
  extId: string | null
  question: string | null
  reference: string
  metadata: Record<string, unknown>
  candidates: NormCandidate[]
  facts: NormFact[]
  unmatched?: UnmatchedKey[]
  unlabelled?: UnlabelledFact[]
  /**
   * The dataset's label schema as the file states it on each row (FactLab's own export), where a
   * preset cannot know it from the columns: set on the dataset before the item's labels are saved.
   */
  labelSchema?: LabelSchema
  /** Label givers the file marks as the dataset's own reference labels, not people (see `sources`). */
  sources?: readonly string[]
  /** The dataset's gold rule as the file states it (FactLab's own export), set on the dataset. */
  goldRule?: GoldRule
}

export type Row = Record<string, unknown>

/** Settings a preset may take beyond the mapping (SummEval's scored dimension). */
export interface PresetOptions {
  dimension?: string
}

/** What turns rows of one layout into items. */
export interface RowConverter {
  name: PresetName | 'mapping'
  labelSchema: LabelSchema
  /** Columns a file must have; checked on the first row, before any write. */
  required: string[]
  /** The plain mapping shown in the wizard (null where the layout is nested). */
  mapping: Mapping | null
  toItem(row: Row): NormItem
  /**
   * Rows that continue the previous item (SummEval: one line per system summary of an
   * article) are merged into it; returns null when `next` starts a new item.
   */
  merge?(prev: NormItem, next: NormItem): NormItem | null
  /**
   * Label givers that are the dataset's own reference labels, not people (MRPC's quality
   * column): stored as a source the person sees and can rename, never offered as "who is
   * labelling".
   */
  sources?: readonly string[]
  /** The gold rule the dataset starts with (SummEval: its experts' majority), else the default. */
  goldRule?: GoldRule
  /** The guidelines and plan the rows carried (FactLab's own export), asked once all are read. */
  project?(): NormProject | null
}
