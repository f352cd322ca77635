import type { UnitKind } from '../../shared/domain'
import type { LabelSchema } from '../../shared/labelSchemas'
import { binaryRepresentatives } from './schemaFit'
import type { JudgeMethodImpl, MethodSettings, TargetInput, VerdictOutcome } from './types'

/**
 * The offline floor every LLM judge must beat: n-gram overlap between a unit and the text it is
 * checked against. All scores use one tokeniser, so ROUGE-1/2/L and token overlap are comparable:
 * `unicode` (default) lower-cased runs of letters and digits in any script; `ascii` lower-cased
 * `[a-z0-9]+` runs, as the papers' ROUGE scripts tokenise (accented and non-Latin letters split
 * words and are dropped).
 */
export type LexicalMetric = NonNullable<MethodSettings['lexicalMetric']>

export interface Prf {
  precision: number
  recall: number
  f: number
}

export interface LexicalScores {
  rouge1: Prf
  rouge2: Prf
  rougeL: Prf
  /** Share of the claim's distinct tokens that occur in the evidence. */
  overlap: number
}

export const DEFAULT_LEXICAL_METRIC: LexicalMetric = 'rougeL'
export const DEFAULT_LEXICAL_THRESHOLD = 0.5

export type LexicalTokens = NonNullable<MethodSettings['lexicalTokens']>
export const DEFAULT_LEXICAL_TOKENS: LexicalTokens = 'unicode'

export function tokenize(text: string, mode: LexicalTokens = DEFAULT_LEXICAL_TOKENS): string[] {
  const lower = text.toLowerCase()
  return (mode === 'ascii' ? lower.match(/[a-z0-9]+/g) : lower.match(/[\p{L}\p{N}]+/gu)) ?? []
}

function prf(matches: number, claimCount: number, evidenceCount: number): Prf {
  const precision = claimCount === 0 ? 0 : matches / claimCount
  const recall = evidenceCount === 0 ? 0 : matches / evidenceCount
  const f = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
  return { precision, recall, f }
}

function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>()
  for (let i = 0; i + n <= tokens.length; i++) {
    const g = tokens.slice(i, i + n).join(' ')
    counts.set(g, (counts.get(g) ?? 0) + 1)
  }
  return counts
}

/** ROUGE-N with clipped counts; precision is over the claim's n-grams, recall over the evidence's. */
export function rougeN(claim: readonly string[], evidence: readonly string[], n: number): Prf {
  const c = ngramCounts(claim, n)
  const e = ngramCounts(evidence, n)
  let matches = 0
  for (const [g, k] of c) matches += Math.min(k, e.get(g) ?? 0)
  return prf(matches, Math.max(0, claim.length - n + 1), Math.max(0, evidence.length - n + 1))
}

export function lcsLength(a: readonly string[], b: readonly string[]): number {
  // Two rolling rows keep memory linear in the shorter side.
  const [long, short] = a.length >= b.length ? [a, b] : [b, a]
  let prev = new Array<number>(short.length + 1).fill(0)
  let cur = new Array<number>(short.length + 1).fill(0)
  for (let i = 1; i <= long.length; i++) {
    for (let j = 1; j <= short.length; j++) {
      cur[j] = long[i - 1] === short[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!)
    }
    ;[prev, cur] = [cur, prev]
  }
  return prev[short.length]!
}

export function rougeL(claim: readonly string[], evidence: readonly string[]): Prf {
  return prf(lcsLength(claim, evidence), claim.length, evidence.length)
}

export function tokenOverlap(claim: readonly string[], evidence: readonly string[]): number {
  const c = new Set(claim)
  if (c.size === 0) return 0
  const e = new Set(evidence)
  let hit = 0
  for (const t of c) if (e.has(t)) hit++
  return hit / c.size
}

export function lexicalScores(
  claimText: string,
  evidenceText: string,
  mode: LexicalTokens = DEFAULT_LEXICAL_TOKENS,
): LexicalScores {
  const claim = tokenize(claimText, mode)
  const evidence = tokenize(evidenceText, mode)
  return {
    rouge1: rougeN(claim, evidence, 1),
    rouge2: rougeN(claim, evidence, 2),
    rougeL: rougeL(claim, evidence),
    overlap: tokenOverlap(claim, evidence),
  }
}

/**
 * The number a threshold applies to. A fact or sentence is short and its evidence long, so
 * F-measure would mostly measure the length ratio; for those the claim-side precision (how much
 * of the unit the evidence covers) is used. A whole candidate against its reference is a
 * symmetric comparison, where the F-measure is the usual choice.
 */
export function pickScore(scores: LexicalScores, metric: LexicalMetric, kind: UnitKind): number {
  if (metric === 'overlap') return scores.overlap
  return kind === 'whole' ? scores[metric].f : scores[metric].precision
}

const BY_KIND: Record<UnitKind, { yes: string; no: string }> = {
  fact: { yes: 'true', no: 'false' },
  triplet: { yes: 'entailment', no: 'neutral' },
  sentence: { yes: 'consistent', no: 'inconsistent' },
  whole: { yes: 'pass', no: 'fail' },
}

/**
 * Verdict words in the dataset's vocabulary. Lexical overlap can show support but never a
 * contradiction, so "unsupported" is the lowest-scored unsupported value, else the first one
 * (false, neutral, inconsistent, no); a numeric schema gets the score spread over its range.
 */
export function verdictFor(score: number, threshold: number, kind: UnitKind, schema?: LabelSchema): string {
  if (schema?.type === 'numeric') {
    return String(Math.round((schema.min + score * (schema.max - schema.min)) * 100) / 100)
  }
  const reps = schema ? binaryRepresentatives(schema) : null
  const { yes, no } = reps ? { yes: reps.supported, no: reps.unsupported } : BY_KIND[kind]
  return score >= threshold ? yes : no
}

function evidenceFor(
  target: TargetInput,
  reference: string,
  candidate: string,
): { claim: string; evidence: string } {
  if (target.kind === 'fact') return { claim: target.text, evidence: candidate }
  if (target.kind === 'whole') return { claim: candidate, evidence: reference }
  return { claim: target.text, evidence: reference }
}

const round = (x: number): number => Math.round(x * 10000) / 10000

export const lexical: JudgeMethodImpl = {
  name: 'lexical',
  unitKinds: ['fact', 'triplet', 'sentence', 'whole'],
  // Answers in whichever schema the dataset uses (see verdictFor).
  schema: 'dataset',
  async judge(task, ctx) {
    const metric = ctx.settings.lexicalMetric ?? DEFAULT_LEXICAL_METRIC
    const threshold = ctx.settings.lexicalThreshold ?? DEFAULT_LEXICAL_THRESHOLD
    const tokens = ctx.settings.lexicalTokens ?? DEFAULT_LEXICAL_TOKENS
    return task.targets.map((t): VerdictOutcome => {
      const { claim, evidence } = evidenceFor(t, task.item.reference, task.candidate.text)
      const s = lexicalScores(claim, evidence, tokens)
      const score = pickScore(s, metric, t.kind)
      const verdict = verdictFor(score, threshold, t.kind, ctx.labelSchema)
      const detail = {
        metric,
        threshold,
        tokens,
        score: round(score),
        rouge1: { p: round(s.rouge1.precision), r: round(s.rouge1.recall), f: round(s.rouge1.f) },
        rouge2: { p: round(s.rouge2.precision), r: round(s.rouge2.recall), f: round(s.rouge2.f) },
        rougeL: { p: round(s.rougeL.precision), r: round(s.rougeL.recall), f: round(s.rougeL.f) },
        overlap: round(s.overlap),
      }
      return {
        targetId: t.targetId,
        status: 'ok',
        verdict,
        // On a numeric scale the stored score is the verdict's number, so the metrics read the
        // verdict against the schema's threshold; the 0–1 overlap stays in the detail.
        score: ctx.labelSchema?.type === 'numeric' ? Number(verdict) : score,
        detail,
      }
    })
  },
}
