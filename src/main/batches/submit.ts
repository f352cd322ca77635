import { randomBytes } from 'node:crypto'
import type { LlmRequest } from '../providers/types'
import { insertCall } from '../runs/repo'
import { relaxedWrite } from '../store/statements'
import type { Drive } from './drive'
import { splitByLimits } from './plan'
import {
  type BatchRow,
  batchRequests,
  getBatch,
  insertBatch,
  knownProviderIds,
  recordState,
  setAdopted,
  setIngested,
  setRequestState,
  setSubmitting,
  setUploaded,
} from './repo'

/** Calls a pass could not answer, by key: each request and its record, ready for a batch. */
export type ToSubmit = Map<
  string,
  { hash: string; record: { request: LlmRequest; wire: Record<string, unknown> } }
>

/** Every request of a batch the provider would not take becomes a failed call. */
export function refuse(d: Drive, b: BatchRow, message: string): void {
  const { db, run } = d
  relaxedWrite(db, () => {
    for (const r of batchRequests(db, b.id)) {
      if (r.state !== 'waiting') continue
      insertCall(db, {
        runId: run.id,
        key: r.callKey,
        status: 'error',
        requestHash: r.requestHash,
        request: JSON.parse(r.record) as unknown,
        reply: null,
        cached: false,
        attempts: 1,
        latencyMs: null,
        promptTokens: 0,
        completionTokens: 0,
        viaBatch: true,
        cost: 0,
        error: message,
      })
      setRequestState(db, b.id, r.customId, 'error')
      d.failedNow.add(r.callKey)
    }
    setIngested(db, b.id, message)
  })
}

const wireOf = (record: string) => (JSON.parse(record) as { wire: Record<string, unknown> }).wire

/** Upload and create, from whatever step a batch was left at. */
export async function submit(d: Drive, start: BatchRow): Promise<void> {
  const { db, api, signal, run } = d
  let b = start
  const lines = batchRequests(db, b.id).map((r) => api.lineOf(r.customId, wireOf(r.record)))
  if (b.state === 'preparing') {
    const up = await d.withRetry('uploading the batch file', () => api.upload(lines, signal))
    if (!up.ok) return refuse(d, b, up.error)
    setUploaded(db, b.id, up.value)
    b = getBatch(db, b.id)
  }
  if (b.state === 'submitting') {
    // Killed during the create call: the provider may have the batch already.
    const found = await d.withRetry('looking for a batch created before an interruption', () =>
      api.findCreated(
        { fileId: b.inputFileId, requests: b.requests, since: b.submitStartedAt ?? b.createdAt },
        knownProviderIds(db, api.provider),
        signal,
      ),
    )
    if (found.ok && found.value) {
      setAdopted(db, b.id)
      return recordState(db, b.id, found.value)
    }
  }
  setSubmitting(db, b.id)
  const created = await d.withRetry('creating the batch', () =>
    api.create({ fileId: b.inputFileId, lines, tag: `factlab run ${run.id} batch ${b.id}` }, signal),
  )
  if (!created.ok) return refuse(d, b, created.error)
  recordState(db, b.id, created.value)
}

/** New batches for the deferred calls, split by the provider's limits, each submitted in turn. */
export async function submitNew(d: Drive, toSubmit: ToSubmit): Promise<void> {
  const { db, api, run } = d
  const entries = [...toSubmit]
  // Sized with the longest custom_id this run can give, so the real lines never exceed a limit.
  const probeId = `r${run.id}-b${'9'.repeat(12)}-${'x'.repeat(8)}-${'9'.repeat(7)}`
  const lines = entries.map(([, v]) => api.lineOf(probeId, v.record.wire))
  const sizes = lines.map((l) => Buffer.byteLength(l, 'utf8'))
  for (const group of splitByLimits(sizes, api.limits)) {
    const bytes = group.reduce((n, i) => n + (sizes[i] ?? 0) + 1, 0)
    // A random tag in every custom_id: results of a batch that is not this one never match.
    const tag = randomBytes(6).toString('base64url').slice(0, 8)
    const id = insertBatch(db, { runId: run.id, provider: api.provider, bytes }, (batchId) =>
      group.map((i, n) => {
        const [key, v] = entries[i] as (typeof entries)[number]
        return {
          customId: `r${run.id}-b${batchId}-${tag}-${n}`,
          callKey: key,
          requestHash: v.hash,
          record: JSON.stringify(v.record),
          tool: v.record.request.tool !== undefined,
        }
      }),
    )
    await submit(d, getBatch(db, id))
  }
}
