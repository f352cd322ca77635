import { type NaScope, naScopeOf } from '../../shared/naScope'
import type { LlmReply, LlmRequest } from '../providers/types'
import { evenChunks, na, parseArguments, transportError, withFollowUp } from './common'
import {
  buildVerdictSchema,
  callFailure,
  maxStatementsPerCall,
  parseVerdictArguments,
  type VerdictFieldsSpec,
  type VerdictSchema,
  verdictTool,
} from './faafSchema'
import type { JudgeContext, TargetInput, VerdictOutcome } from './types'

/**
 * The FaaF call pattern shared by FaaF and the batched RefChecker: all targets of a candidate in
 * one forced function call, split only when a schema limit leaves no choice. One attempt by
 * default; a format failure is an N/A with its reason, and the optional repair retry is recorded.
 * An invalid argument fails the whole call by default (`settings.naScope`, shared/naScope.ts).
 */
export interface BatchedConfig {
  keyPrefix: string
  candidateId: number
  spec: Omit<VerdictFieldsSpec, 'texts'>
  /** The statement each target contributes to the schema (its argument's description). */
  textOf: (target: TargetInput) => string
  /** Word used in problems: "no verdict for fact 3". */
  noun: string
  toolName: string
  toolDescription: string
  /** The request for one chunk, given the tool built for it. */
  request: (tool: ReturnType<typeof verdictTool>, targets: readonly TargetInput[]) => LlmRequest
}

export async function judgeBatched(
  targets: readonly TargetInput[],
  ctx: JudgeContext,
  cfg: BatchedConfig,
): Promise<VerdictOutcome[]> {
  const perCall = maxStatementsPerCall(ctx.capabilities, cfg.spec.values.length, cfg.spec.citation)
  const chunks = evenChunks(targets, perCall)
  const results = await Promise.all(chunks.map((chunk, c) => judgeChunk(chunk, c, chunks.length, ctx, cfg)))
  return results.flat()
}

async function judgeChunk(
  chunk: readonly TargetInput[],
  chunkIndex: number,
  chunkCount: number,
  ctx: JudgeContext,
  cfg: BatchedConfig,
): Promise<VerdictOutcome[]> {
  const built = buildVerdictSchema({ ...cfg.spec, texts: chunk.map(cfg.textOf) })
  const tool = verdictTool(built, cfg.toolName, cfg.toolDescription)
  const request = cfg.request(tool, chunk)
  const key = `${cfg.keyPrefix}:${cfg.candidateId}:${chunkIndex}`
  const first = await ctx.call(key, request)
  if (!first.ok) return chunk.map((t) => transportError(t, first.error))
  const base = { chunk: chunkIndex, chunks: chunkCount, viaFallback: first.reply.viaFallback }
  const scope = naScopeOf(ctx.settings)
  const outcomes = interpret(chunk, built, first.reply, cfg.noun, base, scope)
  const failed = outcomes.filter((o) => o.status === 'na')
  if (!ctx.settings.repairRetry || failed.length === 0) return outcomes

  // A call that failed as a whole gives every statement the same reason: said once.
  const problems = [...new Set(failed.map((o) => o.problem))].join('; ')
  const repairRequest = withFollowUp(
    request,
    first.reply,
    `That reply could not be used (${problems}). Call ${cfg.toolName} again, giving every argument one of the allowed values.`,
  )
  const second = await ctx.call(`${key}:repair`, repairRequest)
  if (!second.ok) {
    // The first answer stands; the repair only ever replaces N/As.
    return outcomes.map((o) =>
      o.status === 'na' ? { ...o, detail: { ...o.detail, repair: true, repairError: second.error } } : o,
    )
  }
  const repaired = interpret(chunk, built, second.reply, cfg.noun, { ...base, repair: true }, scope)
  return outcomes.map((o, i) => {
    if (o.status !== 'na') return o
    const r = repaired[i]!
    return r.status === 'ok' ? r : { ...r, problem: `${o.problem}; after the repair retry: ${r.problem}` }
  })
}

function interpret(
  chunk: readonly TargetInput[],
  built: VerdictSchema,
  reply: LlmReply,
  noun: string,
  base: Record<string, unknown>,
  scope: NaScope,
): VerdictOutcome[] {
  const args = parseArguments(reply)
  if (!args.ok) return chunk.map((t) => na(t, args.problem, base))
  const parsed = parseVerdictArguments(built, args.value, noun)
  const detail = parsed.extra.length > 0 ? { ...base, extraArguments: parsed.extra } : base
  if (scope === 'call') {
    const failed = callFailure(built, parsed, noun)
    if (failed)
      return chunk.map((t, i) =>
        na(t, failed.problem, {
          ...detail,
          field: built.fields[i]!.verdict,
          invalidArguments: failed.fields,
        }),
      )
  }
  return chunk.map((t, i) => {
    const f = parsed.fields[i]!
    const field = built.fields[i]!.verdict
    if (!f.ok) return na(t, f.problem, { ...detail, field })
    return {
      targetId: t.targetId,
      status: 'ok',
      verdict: f.verdict,
      citation: f.citation,
      detail: { ...detail, field, ...(f.citationProblem ? { citationProblem: f.citationProblem } : {}) },
    }
  })
}
