import { ModelCaps } from '../../shared/contract/judges'
import type { Db } from '../store/connection'
import { parseJson } from '../store/repos/rows'
import type { ProviderName } from './client'
import { DEFAULT_CAPABILITIES, type ModelCapabilities } from './types'

const StoredCapabilities = ModelCaps.partial()

export interface ModelEntry {
  provider: ProviderName
  model: string
  baseUrl: string
  capabilities: ModelCapabilities
  /** Money per million tokens, in whatever currency the person entered. */
  priceInputPerMTok: number
  priceOutputPerMTok: number
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
  }
}

export function listModels(db: Db): ModelEntry[] {
  return (db.prepare('SELECT * FROM models ORDER BY provider, model').all() as ModelRow[]).map(toEntry)
}

export function saveModel(db: Db, entry: ModelEntry): ModelEntry {
  const caps = ModelCaps.parse(entry.capabilities)
  db.prepare(
    `INSERT INTO models (provider, model, base_url, capabilities, price_input_per_mtok, price_output_per_mtok)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (provider, model, base_url) DO UPDATE SET capabilities = excluded.capabilities,
       price_input_per_mtok = excluded.price_input_per_mtok, price_output_per_mtok = excluded.price_output_per_mtok`,
  ).run(
    entry.provider,
    entry.model,
    entry.baseUrl,
    JSON.stringify(caps),
    entry.priceInputPerMTok,
    entry.priceOutputPerMTok,
  )
  return getModel(db, entry.provider, entry.model, entry.baseUrl)
}

export function callCost(
  prices: { input: number; output: number },
  usage: { promptTokens: number; completionTokens: number },
): number {
  return (usage.promptTokens * prices.input + usage.completionTokens * prices.output) / 1_000_000
}
