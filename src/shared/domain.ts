import { z } from 'zod'
import { DEFAULT_GOLD_RULE, GoldRule } from './goldRule'
import { EvidenceSpan, Pane, SaveId } from './labelParts'
import { LabelSchema, UnitKind } from './labelSchemas'

/** Vocabulary of design.md as zod schemas; the renderer, main and CLI share these shapes. */

export const Json = z.record(z.string(), z.unknown())

export const DatasetSource = z.object({
  file: z.string().optional(),
  format: z.string().optional(),
  preset: z.string().optional(),
  mapping: z.unknown().optional(),
  importedAt: z.string().optional(),
  /** A multi-file import: each file and the candidate variant it became. */
  files: z
    .array(
      z.object({
        file: z.string(),
        variant: z.string(),
        source: z.string().optional(),
        setting: z.string().optional(),
      }),
    )
    .optional(),
  /** What the files' names and folders said about the data (RefChecker: setting, source). */
  metadata: Json.optional(),
})
export type DatasetSource = z.infer<typeof DatasetSource>

export const DatasetSettings = z.object({
  /** DCR score constants (design.md: Z = (Σ s_i − α) / (n − β)). */
  alpha: z.number().default(0),
  beta: z.number().default(0),
  /** How gold is made where no one adjudicated (shared/goldRule.ts). */
  goldRule: GoldRule.default(DEFAULT_GOLD_RULE),
  /** Whether an adjudicator may decide a target they labelled themselves (recorded if so). */
  allowSelfAdjudication: z.boolean().default(false),
})
export type DatasetSettings = z.infer<typeof DatasetSettings>

export const Dataset = z.object({
  id: z.number().int(),
  name: z.string(),
  labelSchema: LabelSchema,
  source: DatasetSource,
  createdAt: z.string(),
})
export type Dataset = z.infer<typeof Dataset>

export const Item = z.object({
  id: z.number().int(),
  datasetId: z.number().int(),
  extId: z.string(),
  position: z.number().int(),
  question: z.string().nullable(),
  reference: z.string(),
  metadata: Json,
})
export type Item = z.infer<typeof Item>

export const Candidate = z.object({
  id: z.number().int(),
  itemId: z.number().int(),
  variant: z.string(),
  text: z.string(),
  origin: z.string(),
  parentCandidateId: z.number().int().nullable(),
  metadata: Json,
})
export type Candidate = z.infer<typeof Candidate>

export const Triplet = z.tuple([z.string(), z.string(), z.string()])
export type Triplet = z.infer<typeof Triplet>

export const Unit = z.object({
  id: z.number().int(),
  itemId: z.number().int(),
  candidateId: z.number().int().nullable(),
  kind: UnitKind,
  position: z.number(),
  text: z.string(),
  triplet: Triplet.nullable(),
  origin: z.string(),
  version: z.number().int(),
  lineageId: z.number().int(),
  supersededBy: z.number().int().nullable(),
  deletedAt: z.string().nullable(),
})
export type Unit = z.infer<typeof Unit>

export const Target = z.object({
  id: z.number().int(),
  datasetId: z.number().int(),
  itemId: z.number().int(),
  unitId: z.number().int(),
  candidateId: z.number().int(),
})
export type Target = z.infer<typeof Target>

// Pane, EvidenceSpan and SaveId live in labelParts.ts, which the app's first screen reads alone.
export { EvidenceSpan, Pane, SaveId }

export const Annotator = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
  /** person: someone who labels; source: a dataset's own reference labels (MRPC quality), renamable. */
  kind: z.enum(['person', 'source']).default('person'),
})
export type Annotator = z.infer<typeof Annotator>

export const Label = z.object({
  targetId: z.number().int(),
  annotatorId: z.number().int(),
  verdict: z.string().nullable(),
  evidence: z.array(EvidenceSpan),
  note: z.string().nullable(),
  seconds: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Label = z.infer<typeof Label>

export const LabelInput = z.object({
  targetId: z.number().int(),
  annotatorId: z.number().int(),
  /** null clears the label (undo); the history keeps what it was. */
  verdict: z.string().nullable(),
  evidence: z.array(EvidenceSpan).optional(),
  note: z.string().nullable().optional(),
  seconds: z.number().nonnegative().optional(),
  /**
   * The guidelines version the annotator had on screen when labelling. Left out, the label is
   * stamped with the dataset's latest version.
   */
  guidelinesVersion: z.number().int().min(1).optional(),
})
export type LabelInput = z.infer<typeof LabelInput>

export const RunStatus = z.enum(['queued', 'running', 'paused', 'cancelled', 'failed', 'done'])
export type RunStatus = z.infer<typeof RunStatus>

export const VerdictStatus = z.enum(['ok', 'na', 'error'])
export type VerdictStatus = z.infer<typeof VerdictStatus>

export const PROVIDERS = ['openai', 'anthropic', 'openai-compatible', 'lexical', 'imported'] as const
export const Provider = z.enum(PROVIDERS)
export type Provider = z.infer<typeof Provider>

export const JUDGE_METHODS = [
  'prompt-tf',
  'faaf-tf',
  'faaf-tfn',
  'faaf-tf-cite',
  'faaf-tfn-cite',
  'refchecker',
  'refchecker-batched',
  'dcr',
  'holistic',
  'lexical',
] as const
export const JudgeMethod = z.enum(JUDGE_METHODS)
export type JudgeMethod = z.infer<typeof JudgeMethod>

export const GENERATE_METHODS = ['facts', 'questions', 'triplets', 'sentences'] as const
export const GenerateMethod = z.enum(GENERATE_METHODS)
export type GenerateMethod = z.infer<typeof GenerateMethod>

export { UnitKind } from './labelSchemas'
