import OpenAI, { toFile } from 'openai'
import type { Batch } from 'openai/resources/batches'
import { z } from 'zod'
import { sdkOptions } from '../adapter'
import type { ProviderOptions } from '../client'
import { asTransport } from '../errors'
import { forEachJsonLine } from './lines'
import {
  type BatchApi,
  type BatchLimits,
  type BatchResult,
  type BatchState,
  OPENAI_BATCH_LIMITS,
} from './types'

const ENDPOINT = '/v1/chat/completions'

const OutputLine = z.object({
  custom_id: z.string(),
  response: z.object({ status_code: z.number().int(), body: z.unknown() }).nullable().optional(),
  error: z
    .object({ code: z.string().nullable().optional(), message: z.string().nullable().optional() })
    .nullable()
    .optional(),
})

function phaseOf(status: Batch['status']): BatchState['phase'] {
  if (status === 'validating' || status === 'in_progress') return 'in_progress'
  if (status === 'finalizing' || status === 'cancelling') return 'finalizing'
  return 'ended'
}

export function openAiState(b: Batch): BatchState {
  const c = b.request_counts
  const total = c?.total ?? 0
  const errors = b.errors?.data?.map((e) => e.message ?? e.code).filter(Boolean) ?? []
  return {
    id: b.id,
    phase: phaseOf(b.status),
    providerStatus: b.status,
    counts: {
      total,
      succeeded: c?.completed ?? 0,
      errored: c?.failed ?? 0,
      processing: Math.max(0, total - (c?.completed ?? 0) - (c?.failed ?? 0)),
    },
    outputFileId: b.output_file_id ?? null,
    errorFileId: b.error_file_id ?? null,
    error: b.status === 'failed' ? errors.join('; ') || 'the batch failed validation' : null,
  }
}

/** One line of an output or error file as the driver's result. */
export function openAiResult(raw: unknown): BatchResult | null {
  const parsed = OutputLine.safeParse(raw)
  if (!parsed.success) return null
  const { custom_id: customId, response, error } = parsed.data
  if (error?.code === 'batch_expired') return { customId, kind: 'unfinished', why: 'expired' }
  if (error?.code === 'batch_cancelled') return { customId, kind: 'unfinished', why: 'cancelled' }
  if (response && response.status_code >= 200 && response.status_code < 300)
    return { customId, kind: 'succeeded', body: response.body }
  const bodyMessage = z.object({ error: z.object({ message: z.string() }) }).safeParse(response?.body)
  const message = bodyMessage.success
    ? bodyMessage.data.error.message
    : (error?.message ?? 'the request failed in the batch')
  return { customId, kind: 'errored', status: response?.status_code, message }
}

export function createOpenAiBatchApi(
  opts: ProviderOptions,
  limits: BatchLimits = OPENAI_BATCH_LIMITS,
): BatchApi {
  // The global fetch streams, so a results file is ingested as it arrives; the lean fetch of
  // the synchronous path buffers whole replies, fine for a verdict but not for 200 MB.
  const client = new OpenAI({
    ...sdkOptions(opts),
    fetch: (url: string | URL | Request, init?: RequestInit) => fetch(url, init),
    timeout: Math.max(opts.timeoutMs, 600_000),
  })
  return {
    provider: 'openai',
    limits,
    lineOf: (customId, body) => JSON.stringify({ custom_id: customId, method: 'POST', url: ENDPOINT, body }),
    upload: (lines, signal) =>
      asTransport(async () => {
        const file = await toFile(Buffer.from(`${lines.join('\n')}\n`, 'utf8'), 'factlab-batch.jsonl', {
          type: 'application/jsonl',
        })
        return (await client.files.create({ file, purpose: 'batch' }, { signal })).id
      }),
    create: ({ fileId, tag }, signal) =>
      asTransport(async () => {
        if (!fileId) throw new Error('an OpenAI batch needs its uploaded input file')
        const b = await client.batches.create(
          { input_file_id: fileId, endpoint: ENDPOINT, completion_window: '24h', metadata: { factlab: tag } },
          { signal },
        )
        return openAiState(b)
      }),
    findCreated: ({ fileId }, known, signal) =>
      asTransport(async () => {
        if (!fileId) return null
        let seen = 0
        for await (const b of client.batches.list({ limit: 100 }, { signal })) {
          if (b.input_file_id === fileId && !known.has(b.id)) return openAiState(b)
          if (++seen >= 500) break
        }
        return null
      }),
    retrieve: (id, signal) =>
      asTransport(async () => openAiState(await client.batches.retrieve(id, { signal }))),
    cancel: (id, signal) => asTransport(async () => openAiState(await client.batches.cancel(id, { signal }))),
    results: (state, onResult, signal) =>
      asTransport(async () => {
        for (const fileId of [state.outputFileId, state.errorFileId]) {
          if (!fileId) continue
          const res = await client.files.content(fileId, { signal })
          if (!res.body) throw new Error('the results file came back empty')
          await forEachJsonLine(res.body as unknown as AsyncIterable<Uint8Array>, (raw) => {
            const r = openAiResult(raw)
            if (r) onResult(r)
          })
        }
      }),
  }
}
