import { z } from 'zod'
import { toolCallFor } from '../providers/client'
import type { LlmMessage, LlmReply, LlmRequest, LlmTool } from '../providers/types'
import {
  ANSWER_BY,
  answerBy,
  DEFAULT_TEMPLATES,
  PER_CALL_VARS,
  renderTemplate,
  TEMPLATE_VARS,
  type TemplateName,
} from './templates'
import type { CallResult, JudgeContext, TargetInput, VerdictOutcome } from './types'

/** Shared plumbing of the method modules: requests from templates, reply parsing, outcomes. */

export const NO_QUESTION = '(no question given)'

export function questionText(question: string | null | undefined): string {
  const q = question?.trim()
  return q ? q : NO_QUESTION
}

/**
 * Builds a request from the run's template (falling back to the default) with exactly the
 * variables the template is allowed to use, so an edited template fails here with a clear message.
 */
export function buildRequest(
  ctx: JudgeContext,
  name: TemplateName,
  vars: Readonly<Record<string, string>>,
  tool?: LlmTool,
): LlmRequest {
  const tpl = ctx.templates[name] ?? DEFAULT_TEMPLATES[name]
  const allowed: Record<string, string> = {}
  for (const v of TEMPLATE_VARS[name]) allowed[v] = vars[v] ?? ''
  // Said as the request will go: a function to call, or a JSON object to reply with.
  if (tool && TEMPLATE_VARS[name].includes(ANSWER_BY))
    allowed[ANSWER_BY] = answerBy(toolCallFor(true, ctx.capabilities))
  const request: LlmRequest = {
    messages: [{ role: 'user', content: renderTemplate(tpl.user, allowed, `template "${name}"`) }],
  }
  if (tpl.system?.trim()) request.system = renderTemplate(tpl.system, allowed, `template "${name}" (system)`)
  const prefix = sharedPrefix(tpl.user, name, allowed, request.messages[0]?.content ?? '')
  if (prefix > 0 && ctx.settings.promptCache !== false) request.cachePrefix = prefix
  if (tool) request.tool = tool
  if (ctx.settings.temperature !== undefined) request.temperature = ctx.settings.temperature
  if (ctx.settings.maxTokens !== undefined) request.maxTokens = ctx.settings.maxTokens
  return request
}

/**
 * Length of the rendered user text that every call of a task shares: everything before the
 * template's per-call placeholder (the fact, the triplet). 0 when the template has none, or when
 * the passage does not come before it (too little would be shared to be worth a cache write).
 */
function sharedPrefix(
  user: string,
  name: TemplateName,
  vars: Record<string, string>,
  rendered: string,
): number {
  const split = PER_CALL_VARS[name]
  if (!split) return 0
  const at = user.indexOf(`{{${split.perCall}}}`)
  const passage = user.indexOf(`{{${split.passage}}}`)
  if (at <= 0 || passage < 0 || passage > at) return 0
  const head = renderTemplate(user.slice(0, at), vars, `template "${name}"`)
  return rendered.startsWith(head) ? head.length : 0
}

/** The same request with one more exchange: used by the optional repair retry. */
export function withFollowUp(request: LlmRequest, reply: LlmReply, followUp: string): LlmRequest {
  const said = reply.toolArguments ?? reply.text ?? ''
  const messages: LlmMessage[] = [
    ...request.messages,
    { role: 'assistant', content: said.trim() ? said : '(empty reply)' },
    { role: 'user', content: followUp },
  ]
  return { ...request, messages }
}

/** JSON Schema for a tool's parameters; `$schema` is dropped because some servers reject it. */
export function toolParameters(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema) as Record<string, unknown>
  delete json.$schema
  return json
}

export type ParsedArguments = { ok: true; value: Record<string, unknown> } | { ok: false; problem: string }

export const PROSE_PROBLEM = 'the model answered in prose instead of calling the function'

/** Reads a reply's tool arguments as a JSON object, naming what went wrong when it is not one. */
export function parseArguments(reply: LlmReply): ParsedArguments {
  if (reply.toolArguments === null) {
    if (reply.viaFallback) return { ok: false, problem: 'the reply contained no JSON object' }
    return { ok: false, problem: reply.text?.trim() ? PROSE_PROBLEM : 'the reply was empty' }
  }
  let value: unknown
  try {
    value = JSON.parse(reply.toolArguments)
  } catch {
    return { ok: false, problem: 'arguments are not valid JSON' }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: 'arguments are not a JSON object' }
  }
  return { ok: true, value: value as Record<string, unknown> }
}

/** Validates parsed arguments against a zod schema; the message names the offending fields. */
export function validateArguments<T>(
  schema: z.ZodType<T>,
  reply: LlmReply,
): { ok: true; value: T } | { ok: false; problem: string } {
  const parsed = parseArguments(reply)
  if (!parsed.ok) return parsed
  const checked = schema.safeParse(parsed.value)
  if (checked.success) return { ok: true, value: checked.data }
  return { ok: false, problem: `arguments do not match the schema: ${z.prettifyError(checked.error)}` }
}

export function na(target: TargetInput, problem: string, detail?: Record<string, unknown>): VerdictOutcome {
  return { targetId: target.targetId, status: 'na', verdict: null, problem, ...(detail ? { detail } : {}) }
}

export function transportError(target: TargetInput, error: string): VerdictOutcome {
  return { targetId: target.targetId, status: 'error', verdict: null, problem: error }
}

/**
 * The last guard of "one verdict per target": outcomes come back in target order, a target the
 * method forgot is N/A with a reason, and stray or duplicate outcomes are dropped.
 */
export function onePerTarget(
  targets: readonly TargetInput[],
  outcomes: readonly VerdictOutcome[],
): VerdictOutcome[] {
  const byId = new Map<number, VerdictOutcome>()
  for (const o of outcomes) if (!byId.has(o.targetId)) byId.set(o.targetId, o)
  return targets.map((t) => byId.get(t.targetId) ?? na(t, 'the judge returned no verdict for this target'))
}

/** An outcome tied to the call it came from (see VerdictOutcome.callId). */
export function fromCall(outcome: VerdictOutcome, res: CallResult): VerdictOutcome {
  return res.callId === undefined ? outcome : { ...outcome, callId: res.callId }
}

/** A readable one-line form of a triplet target. */
export function tripletText(target: TargetInput): string {
  return target.triplet
    ? `("${target.triplet[0]}", "${target.triplet[1]}", "${target.triplet[2]}")`
    : target.text
}

/** Splits n items into as few chunks of at most `max` as possible, with sizes differing by at most one. */
export function evenChunks<T>(items: readonly T[], max: number): T[][] {
  if (items.length === 0) return []
  const size = Math.max(1, Math.floor(max))
  const count = Math.ceil(items.length / size)
  const base = Math.floor(items.length / count)
  const extra = items.length % count
  const chunks: T[][] = []
  let at = 0
  for (let c = 0; c < count; c++) {
    const len = base + (c < extra ? 1 : 0)
    chunks.push(items.slice(at, at + len))
    at += len
  }
  return chunks
}
