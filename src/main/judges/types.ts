import type { Candidate, Item, Triplet, UnitKind } from '../../shared/domain'
import type { LabelSchema } from '../../shared/labelSchemas'
import type { NaScope } from '../../shared/naScope'
import type { LlmReply, LlmRequest, ModelCapabilities } from '../providers/types'

/** One target a method must give a verdict on, with the texts it needs. */
export interface TargetInput {
  targetId: number
  unitId: number
  kind: UnitKind
  text: string
  triplet: Triplet | null
}

/** The unit of work of a judge: one candidate with its item and the targets in it. */
export interface CandidateTask {
  item: Pick<Item, 'id' | 'question' | 'reference' | 'metadata'>
  candidate: Pick<Candidate, 'id' | 'variant' | 'text'>
  targets: TargetInput[]
}

/**
 * Result of one call through the run engine: a reply, or a transport failure after retries. The
 * call's stored row comes with it when there is one (a preview stores none), so a method that
 * makes one call per target can name each verdict's own call.
 */
export type CallResult = ({ ok: true; reply: LlmReply } | { ok: false; error: string }) & { callId?: number }

/** Templates resolved for a run: name → body with `{{placeholders}}`. */
export type TemplateSet = Record<string, { system?: string; user: string }>

export interface MethodSettings {
  temperature?: number
  maxTokens?: number
  /** prompt-tf: `word-match` (the paper's fragile matching) or `strict` (first token). */
  parseMode?: 'word-match' | 'strict'
  /** lexical: which score and the threshold for "supported". */
  lexicalMetric?: 'rouge1' | 'rouge2' | 'rougeL' | 'overlap'
  lexicalThreshold?: number
  /** lexical: `unicode` words (default) or the papers' ASCII `[a-z0-9]+` lower-case tokens. */
  lexicalTokens?: 'unicode' | 'ascii'
  /** dcr: use an LLM call for AMC (true) or map DCE decisions to ±1 (false). */
  amcLlm?: boolean
  /** dcr: the score constants of Z = (Σ s_i − α) / (n − β); both 0 by default. */
  alpha?: number
  beta?: number
  /** FaaF / batched checkers: re-ask once with the validation error (counted as a repair). */
  repairRetry?: boolean
  /** FaaF / batched checkers: an invalid argument fails the whole call (`call`, default) or only itself. */
  naScope?: NaScope
  /** Per-fact and per-triplet methods: mark the shared prefix for the provider's prompt cache (default on). */
  promptCache?: boolean
}

/**
 * A request, or how to build it: a method that makes many calls per candidate (one per fact or
 * triplet) hands the builder, so a call already answered (a resumed run, a batch run's pass over
 * its results) never renders its templates again.
 */
export type RequestOf = LlmRequest | (() => LlmRequest)

export const requestOf = (r: RequestOf): LlmRequest => (typeof r === 'function' ? r() : r)

/**
 * What the run engine hands a method. `call` is memoised by key within the run: a key that
 * already finished (before a crash, or in the cache) returns its stored reply without a call
 * (and without building the request, when given its builder).
 */
export interface JudgeContext {
  call(key: string, request: RequestOf): Promise<CallResult>
  settings: MethodSettings
  templates: TemplateSet
  capabilities: ModelCapabilities
  /** The dataset's label schema, when known; the lexical baseline answers in its vocabulary. */
  labelSchema?: LabelSchema
}

/**
 * One verdict per target sent, always: a target the reply did not cover is `na` with a reason,
 * a transport failure is `error`. Verdict strings are label-schema values.
 */
export interface VerdictOutcome {
  targetId: number
  status: 'ok' | 'na' | 'error'
  verdict: string | null
  score?: number | null
  reason?: string | null
  citation?: string | null
  /** Why the verdict is N/A or an error. */
  problem?: string | null
  /** Method-specific extras (DCR reasons and ±1 marks, ROUGE scores, …). */
  detail?: Record<string, unknown>
  /**
   * The call this verdict came from, when the method made one call per target; otherwise the
   * verdict names the last call of its candidate.
   */
  callId?: number
}

export interface JudgeMethodImpl {
  /** Contract method name, e.g. `faaf-tfn-cite`. */
  name: string
  /** The unit kinds this method judges (facts for FaaF, triplets for RefChecker, …). */
  unitKinds: readonly UnitKind[]
  /** The label schema its verdicts belong to (`faaf`, `refchecker`, `dcr`, `holistic`). */
  schema: string
  judge(task: CandidateTask, ctx: JudgeContext): Promise<VerdictOutcome[]>
}

/** Extraction jobs (`units generate`): facts and questions per item, triplets per candidate. */
export interface GenerateTask {
  item: Pick<Item, 'id' | 'question' | 'reference' | 'metadata'>
  /** Set for per-candidate generators (triplets, sentences). */
  candidate?: Pick<Candidate, 'id' | 'variant' | 'text'>
}

export interface GeneratedUnit {
  kind: UnitKind
  text: string
  triplet?: Triplet | null
}

export interface GenerateOutcome {
  units?: GeneratedUnit[]
  /** Synthetic question generation sets this (seed 001, for pairs without a question). */
  question?: string
  /** Why nothing usable came back (format failure or transport error). */
  problem?: string
}

export interface GeneratorImpl {
  name: 'facts' | 'questions' | 'triplets' | 'sentences'
  perCandidate: boolean
  generate(task: GenerateTask, ctx: JudgeContext): Promise<GenerateOutcome>
}

/** RAI: one rewrite of a candidate from its judged sentences. */
export interface RewriteTask {
  item: Pick<Item, 'id' | 'question' | 'reference'>
  candidate: Pick<Candidate, 'id' | 'variant' | 'text'>
  /** `consistent` is null where the judge gave no verdict (N/A or error): such a sentence is not rewritten. */
  sentences: { text: string; consistent: boolean | null; reason: string | null }[]
}

export interface ImproverImpl {
  rewrite(task: RewriteTask, ctx: JudgeContext): Promise<{ text: string } | { problem: string }>
}
