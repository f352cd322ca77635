import {
  type CallResult,
  type CandidateTask,
  type JudgeContext,
  type MethodSettings,
  requestOf,
  type TargetInput,
  type TemplateSet,
} from '../../src/main/judges/types'
import {
  DEFAULT_CAPABILITIES,
  type LlmReply,
  type LlmRequest,
  type ModelCapabilities,
} from '../../src/main/providers/types'
import type { UnitKind } from '../../src/shared/domain'

/** A scripted stand-in for the run engine: answers each call from a function, records every call. */
export type Scripted = LlmReply | { error: string }
export interface Recorded {
  key: string
  request: LlmRequest
}

export function scriptedCtx(
  script: (key: string, request: LlmRequest, index: number) => Scripted,
  opts: {
    settings?: MethodSettings
    capabilities?: Partial<ModelCapabilities>
    templates?: TemplateSet
  } = {},
): { ctx: JudgeContext; calls: Recorded[] } {
  const calls: Recorded[] = []
  const ctx: JudgeContext = {
    settings: opts.settings ?? {},
    templates: opts.templates ?? {},
    capabilities: { ...DEFAULT_CAPABILITIES.openai, ...opts.capabilities },
    async call(key, build): Promise<CallResult> {
      const request = requestOf(build)
      calls.push({ key, request })
      const out = script(key, request, calls.length - 1)
      return 'error' in out ? { ok: false, error: out.error } : { ok: true, reply: out }
    },
  }
  return { ctx, calls }
}

const usage = { promptTokens: 10, completionTokens: 5 }

export function toolReply(args: Record<string, unknown> | string, viaFallback = false): LlmReply {
  return {
    text: null,
    toolArguments: typeof args === 'string' ? args : JSON.stringify(args),
    viaFallback,
    finishReason: 'tool_calls',
    usage,
    raw: {},
  }
}

export function textReply(text: string): LlmReply {
  return { text, toolArguments: null, viaFallback: false, finishReason: 'stop', usage, raw: {} }
}

export function targets(kind: UnitKind, texts: readonly string[], firstId = 100): TargetInput[] {
  return texts.map((text, i) => ({ targetId: firstId + i, unitId: 1000 + i, kind, text, triplet: null }))
}

export function task(
  t: TargetInput[],
  over: { question?: string | null; reference?: string; candidate?: string } = {},
): CandidateTask {
  return {
    item: {
      id: 7,
      question: over.question === undefined ? 'Who wrote Hamlet?' : over.question,
      reference: over.reference ?? 'Hamlet was written by William Shakespeare around 1600.',
      metadata: {},
    },
    candidate: { id: 42, variant: 'answer', text: over.candidate ?? 'William Shakespeare wrote Hamlet.' },
    targets: t,
  }
}
