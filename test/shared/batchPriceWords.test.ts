import { expect, it } from 'vitest'
import { runLabel } from '../../src/main/metrics/runLabel'
import { batchCountWords } from '../../src/shared/batchWords'
import { batchPriceWords, runCostParts } from '../../src/shared/runNames'

const run = { cost: 0.0012, costBasis: 'run' as const, calls: 30, cached: 0, callErrors: 0 }

it('says how many of a run’s calls paid the batch price: all, some, or none', () => {
  expect(runCostParts({ ...run, batchCalls: 30 }).marks).toEqual(['at the batch price'])
  expect(runCostParts({ ...run, batchCalls: 15 }).marks).toEqual([
    'partly at the batch price: 15 of 30 calls',
  ])
  expect(runCostParts({ ...run, batchCalls: 0 }).marks).toEqual([])
  expect(batchPriceWords(1, 1_200)).toBe('partly at the batch price: 1 of 1,200 calls')
  // No amount, so no price to qualify: an unpriced run says only that.
  expect(runCostParts({ ...run, costBasis: 'none', batchCalls: 15 })).toEqual({
    amount: null,
    marks: ['no price set'],
  })
})

it('counts a batch’s request that a call answered since as answered, not failed', () => {
  const cancelled = {
    providerBatchId: 'batch_7',
    state: 'ingested' as const,
    providerStatus: 'cancelled',
    requests: 30,
    succeeded: 15,
    errored: 0,
    processing: 0,
    error: null,
  }
  expect(batchCountWords({ ...cancelled, answeredSince: 15 })).toBe(
    '30/30 answered (15 in the batch, 15 call by call after it)',
  )
  expect(batchCountWords({ ...cancelled, errored: 15 })).toBe('15/30 answered, 15 failed')
  // A batch the provider never took: its requests failed, unless answered call by call since.
  const refused = { ...cancelled, providerBatchId: null, succeeded: 0, errored: 1, requests: 1 }
  expect(batchCountWords(refused)).toBe('1 request failed')
  expect(batchCountWords({ ...refused, errored: 0, answeredSince: 1 })).toBe(
    '1/1 answered (0 in the batch, 1 call by call after it)',
  )
})

it('names a run by how its calls were priced, once: all batch, partly batch, or nothing', () => {
  const r = { id: 7, model: 'gpt-4o-mini', method: 'faaf-tfn', repeat_index: 0 }
  expect(runLabel({ ...r, answered_calls: 30, batch_calls: 30 })).toBe('gpt-4o-mini · faaf-tfn · batch (#7)')
  // A batch run resumed call by call: "batch" alone would claim half price for every call.
  expect(runLabel({ ...r, answered_calls: 30, batch_calls: 15, repeat_index: 1 })).toBe(
    'gpt-4o-mini · faaf-tfn · partly batch: 15 of 30 calls · repeat 2 (#7)',
  )
  expect(runLabel({ ...r, answered_calls: 30, batch_calls: 0 })).toBe('gpt-4o-mini · faaf-tfn (#7)')
})
