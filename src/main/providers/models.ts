import { z } from 'zod'
import { ModelCaps } from '../../shared/contract/judges'
import type { Db } from '../store/connection'
import { parseJson } from '../store/repos/rows'
import type { ProviderName } from './client'
import { DEFAULT_CAPABILITIES, type ModelCapabilities } from './types'

// No defaults here: a capability never recorded takes the provider's default, not the schema's.
const StoredCapabilities = ModelCaps.extend({ jsonSchema: z.boolean() }).partial()

export interface ModelEntry {
  provider: ProviderName
  model: string
  baseUrl: string
  capabilities: ModelCapabilities
  /** Money per million tokens, in whatever currency the person entered. */
  priceInputPerMTok: number
  priceOutputPerMTok: number
  /** Fraction off at batch price (0.5 = half price). */
  batchDiscount: number
  /** Cache reads and writes per million tokens; null = the provider's usual ratio to input. */
  priceCacheReadPerMTok: number | null
  priceCacheWritePerMTok: number | null
}

export function defaultCapabilities(provider: ProviderName): ModelCapabilities {
  return { ...DEFAULT_CAPABILITIES[provider === 'lexical' ? 'openai-compatible' : provider] }
}

interface ModelRow {
  provider: string
  model: string
  base_url: string
  capabilities: string
  price_input_per_mtok: number
  price_output_per_mtok: number
  batch_discount: number
  price_cache_read_per_mtok: number | null
  price_cache_write_per_mtok: number | null
}

function toEntry(row: ModelRow): ModelEntry {
  const provider = row.provider as ProviderName
  const stored = parseJson(StoredCapabilities, row.capabilities, 'models.capabilities')
  return {
    provider,
    model: row.model,
    baseUrl: row.base_url,
    capabilities: { ...defaultCapabilities(provider), ...stored },
    priceInputPerMTok: row.price_input_per_mtok,
    priceOutputPerMTok: row.price_output_per_mtok,
    batchDiscount: row.batch_discount,
    priceCacheReadPerMTok: row.price_cache_read_per_mtok,
    priceCacheWritePerMTok: row.price_cache_write_per_mtok,
  }
}

/** A model's entry, or the provider's defaults (free, default capabilities) when never edited. */
export function getModel(db: Db, provider: ProviderName, model: string, baseUrl: string | null): ModelEntry {
  const row = db
    .prepare('SELECT * FROM models WHERE provider = ? AND model = ? AND base_url = ?')
    .get(provider, model, baseUrl ?? '') as ModelRow | undefined
  if (row) return toEntry(row)
  return {
    provider,
    model,
    baseUrl: baseUrl ?? '',
    capabilities: defaultCapabilities(provider),
    priceInputPerMTok: 0,
    priceOutputPerMTok: 0,
    batchDiscount: DEFAULT_BATCH_DISCOUNT,
    priceCacheReadPerMTok: null,
    priceCacheWritePerMTok: null,
  }
}

export function listModels(db: Db): ModelEntry[] {
  return (db.prepare('SELECT * FROM models ORDER BY provider, model').all() as ModelRow[]).map(toEntry)
}

/** A model as saved: the batch discount and cache prices may be left to their defaults. */
export type ModelEntryInput = Omit<
  ModelEntry,
  'batchDiscount' | 'priceCacheReadPerMTok' | 'priceCacheWritePerMTok'
> &
  Partial<Pick<ModelEntry, 'batchDiscount' | 'priceCacheReadPerMTok' | 'priceCacheWritePerMTok'>>

export function saveModel(db: Db, entry: ModelEntryInput): ModelEntry {
  const caps = ModelCaps.parse(entry.capabilities)
  db.prepare(
    `INSERT INTO models (provider, model, base_url, capabilities, price_input_per_mtok, price_output_per_mtok,
       batch_discount, price_cache_read_per_mtok, price_cache_write_per_mtok)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (provider, model, base_url) DO UPDATE SET capabilities = excluded.capabilities,
       price_input_per_mtok = excluded.price_input_per_mtok, price_output_per_mtok = excluded.price_output_per_mtok,
       batch_discount = excluded.batch_discount, price_cache_read_per_mtok = excluded.price_cache_read_per_mtok,
       price_cache_write_per_mtok = excluded.price_cache_write_per_mtok`,
  ).run(
    entry.provider,
    entry.model,
    entry.baseUrl,
    JSON.stringify(caps),
    entry.priceInputPerMTok,
    entry.priceOutputPerMTok,
    entry.batchDiscount ?? DEFAULT_BATCH_DISCOUNT,
    entry.priceCacheReadPerMTok ?? null,
    entry.priceCacheWritePerMTok ?? null,
  )
  return getModel(db, entry.provider, entry.model, entry.baseUrl)
}

/** Both providers take half off at batch price unless the price table says otherwise. */
export const DEFAULT_BATCH_DISCOUNT = 0.5

export interface CallPrices {
  input: number
  output: number
  /** Per million cache-read / cache-write tokens; absent = input price × the provider's ratio. */
  cacheRead?: number | null
  cacheWrite?: number | null
  /** Default ratios to the input price when the table has no cache prices (Anthropic: 0.1 / 1.25). */
  cacheReadRatio?: number
  cacheWriteRatio?: number
  batchDiscount?: number
}

export interface CallUsage {
  /** Every prompt token, cache reads and writes included (as the providers count them for OpenAI). */
  promptTokens: number
  completionTokens: number
  cacheReadTokens?: number
  cacheWriteTokens?: number
}

/** A call's prompt tokens by price: uncached, read from the prompt cache, written to it; and the prices of the last two. */
function promptParts(prices: CallPrices, usage: CallUsage) {
  const read = usage.cacheReadTokens ?? 0
  const write = usage.cacheWriteTokens ?? 0
  return {
    plain: Math.max(0, usage.promptTokens - read - write),
    read,
    write,
    readPrice: prices.cacheRead ?? prices.input * (prices.cacheReadRatio ?? 1),
    writePrice: prices.cacheWrite ?? prices.input * (prices.cacheWriteRatio ?? 1),
  }
}

/**
 * Money for one call: uncached prompt tokens at the input price, cache reads and writes at theirs,
 * completion tokens at the output price, everything less the batch discount when `batch`.
 */
export function callCost(prices: CallPrices, usage: CallUsage, batch = false): number {
  const { plain, read, write, readPrice, writePrice } = promptParts(prices, usage)
  const full =
    (plain * prices.input + read * readPrice + write * writePrice + usage.completionTokens * prices.output) /
    1_000_000
  return batch ? full * (1 - (prices.batchDiscount ?? DEFAULT_BATCH_DISCOUNT)) : full
}

/** What each kind of token of a call cost: uncached, cache read, cache write, output. */
export interface CallCostParts {
  uncached: number
  cacheRead: number
  cacheWrite: number
  output: number
}

/**
 * callCost's money told apart by the price each token was paid at (the split a run's cost is
 * shown with, shared/costSplit.ts); the parts add up to callCost's figure.
 */
export function callCostParts(prices: CallPrices, usage: CallUsage, batch = false): CallCostParts {
  const { plain, read, write, readPrice, writePrice } = promptParts(prices, usage)
  const share = batch ? 1 - (prices.batchDiscount ?? DEFAULT_BATCH_DISCOUNT) : 1
  const of = (tokens: number, perMTok: number) => ((tokens * perMTok) / 1_000_000) * share
  return {
    uncached: of(plain, prices.input),
    cacheRead: of(read, readPrice),
    cacheWrite: of(write, writePrice),
    output: of(usage.completionTokens, prices.output),
  }
}
