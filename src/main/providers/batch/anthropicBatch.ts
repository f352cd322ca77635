import Anthropic from '@anthropic-ai/sdk'
import type { MessageBatch } from '@anthropic-ai/sdk/resources/messages/batches'
import { z } from 'zod'
import { sdkOptions } from '../adapter'
import type { ProviderOptions } from '../client'
import { asTransport } from '../errors'
import { anthropicErrorStatus } from './lines'
import {
  ANTHROPIC_BATCH_LIMITS,
  type BatchApi,
  type BatchLimits,
  type BatchResult,
  type BatchState,
} from './types'

const ResultLine = z.object({
  custom_id: z.string(),
  result: z.discriminatedUnion('type', [
    z.object({ type: z.literal('succeeded'), message: z.unknown() }),
    z.object({
      type: z.literal('errored'),
      error: z.looseObject({
        error: z.looseObject({ type: z.string().optional(), message: z.string().optional() }).optional(),
      }),
    }),
    z.object({ type: z.literal('canceled') }),
    z.object({ type: z.literal('expired') }),
  ]),
})

export function anthropicState(b: MessageBatch): BatchState {
  const c = b.request_counts
  const total = c.processing + c.succeeded + c.errored + c.canceled + c.expired
  return {
    id: b.id,
    phase:
      b.processing_status === 'ended'
        ? 'ended'
        : b.processing_status === 'canceling'
          ? 'finalizing'
          : 'in_progress',
    providerStatus: b.processing_status,
    counts: { total, succeeded: c.succeeded, errored: c.errored, processing: c.processing },
    outputFileId: b.results_url,
    errorFileId: null,
    error: null,
  }
}

export function anthropicResult(raw: unknown): BatchResult | null {
  const parsed = ResultLine.safeParse(raw)
  if (!parsed.success) return null
  const { custom_id: customId, result } = parsed.data
  switch (result.type) {
    case 'succeeded':
      return { customId, kind: 'succeeded', body: result.message }
    case 'canceled':
      return { customId, kind: 'unfinished', why: 'cancelled' }
    case 'expired':
      return { customId, kind: 'unfinished', why: 'expired' }
    case 'errored': {
      const e = result.error.error
      return {
        customId,
        kind: 'errored',
        status: anthropicErrorStatus(e?.type),
        message: e?.message ?? e?.type ?? 'the request failed in the batch',
      }
    }
  }
}

export function createAnthropicBatchApi(
  opts: ProviderOptions,
  limits: BatchLimits = ANTHROPIC_BATCH_LIMITS,
): BatchApi {
  const client = new Anthropic({
    ...sdkOptions(opts),
    fetch: (url: string | URL | Request, init?: RequestInit) => fetch(url, init),
    timeout: Math.max(opts.timeoutMs, 600_000),
  })
  return {
    provider: 'anthropic',
    limits,
    lineOf: (customId, body) => JSON.stringify({ custom_id: customId, params: body }),
    upload: async () => null,
    create: ({ lines }, signal) =>
      asTransport(async () => {
        const requests = lines.map((l) => JSON.parse(l) as Anthropic.Messages.BatchCreateParams.Request)
        return anthropicState(await client.messages.batches.create({ requests }, { signal }))
      }),
    findCreated: ({ requests, since }, known, signal) =>
      asTransport(async () => {
        // Message Batches carry no metadata: a batch of the same size created after this
        // workspace began its create call, and not already recorded, is the one it made.
        // Two seconds of slack: the provider's clock and creation times are coarser than ours.
        const from = Date.parse(since) - 2_000
        let seen = 0
        for await (const b of client.messages.batches.list({ limit: 100 }, { signal })) {
          const s = anthropicState(b)
          if (!known.has(b.id) && s.counts.total === requests && Date.parse(b.created_at) >= from) return s
          if (++seen >= 500) break
        }
        return null
      }),
    retrieve: (id, signal) =>
      asTransport(async () => anthropicState(await client.messages.batches.retrieve(id, {}, { signal }))),
    cancel: (id, signal) =>
      asTransport(async () => anthropicState(await client.messages.batches.cancel(id, {}, { signal }))),
    results: (state, onResult, signal) =>
      asTransport(async () => {
        const stream = await client.messages.batches.results(state.id, {}, { signal })
        for await (const raw of stream) {
          const r = anthropicResult(raw)
          if (r) onResult(r)
        }
      }),
  }
}
