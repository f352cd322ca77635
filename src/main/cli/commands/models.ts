import type { Command } from 'commander'
import type { CallOutput } from '../../../shared/contract'
import { modelHasPrices } from '../../../shared/priceSet'
import { probeCaveat } from '../../../shared/probeWords'
import { capabilityList } from '../../providers/capabilityNames'
import { keyStore } from '../../providers/keys'
import { detectModel, type ProbeResult } from '../../providers/probe'
import { CliError, EXIT, printResult } from '../util'
import { baseUrlFlag, providerOf } from './judgeFlags'
import { withWorkspace } from './session'

interface ModelFlags {
  workspace?: string
  provider: string
  model: string
  baseUrl?: string
  json?: boolean
}

interface PriceFlags extends ModelFlags {
  input?: string
  output?: string
  cacheRead?: string
  cacheWrite?: string
  batchDiscount?: string
}

type ModelInfo = CallOutput<'judges.model'>

/** The probe's lines, each "no" that was recorded as a yes saying why (as the model panel does). */
export function probeLines(results: ProbeResult[], recorded: { tools: boolean }): string[] {
  return results.map((r) => {
    const line = `${r.honoured ? 'yes' : 'no '} ${r.capability}: ${r.detail}`
    const caveat = probeCaveat(r, recorded)
    return caveat ? `${line} (${caveat})` : line
  })
}

const price = (n: number | null) => (n === null ? null : String(n))

/** One model entry as `models list` and `models price` print it; 0 everywhere is no price. */
function modelLine(m: ModelInfo): string {
  const where = m.baseUrl ? ` at ${m.baseUrl}` : ''
  const cacheRead = price(m.priceCacheReadPerMTok) ?? "the provider's usual ratio"
  const cacheWrite = price(m.priceCacheWritePerMTok) ?? "the provider's usual ratio"
  const prices = modelHasPrices(m)
    ? `input ${m.priceInputPerMTok}, output ${m.priceOutputPerMTok} per million tokens`
    : "no price set (its runs' cost is unknown; a price of 0 counts as not set)"
  return [
    `${m.provider}/${m.model}${where}: ${prices}`,
    `  batch ${Math.round(m.batchDiscount * 100)}% off; cache read ${cacheRead}, cache write ${cacheWrite}`,
    `  honours: ${capabilityList(m.capabilities).join(', ') || 'none'}`,
  ].join('\n')
}

/** The address a provider's SDK calls when a run gives no base URL. */
const DEFAULT_ADDRESS: Record<string, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
}

/**
 * The address `models price` priced: a model is recorded per base URL, so runs made with another
 * address (or with none, when one was given) stay unpriced, and nothing else would say so.
 */
function pricedAddressLine(m: ModelInfo): string {
  return m.baseUrl
    ? `  these prices are for ${m.baseUrl} only: runs made with another --base-url, or none, take that address's prices, if any`
    : `  these prices are for the provider's default address (${DEFAULT_ADDRESS[m.provider] ?? 'none'}) only, the one runs made without --base-url use: runs made with a --base-url take that address's prices, if any`
}

/** A price per million tokens: a number of 0 or more (in whatever currency the person uses). */
function priceFlag(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined
  const n = Number(raw.trim() === '' ? Number.NaN : raw)
  if (!Number.isFinite(n) || n < 0)
    throw new CliError(`${name} must be a price of 0 or more per million tokens, got "${raw}"`, EXIT.usage)
  return n
}

/** A cache price, or `default` for the provider's usual ratio to the input price (stored as null). */
function cachePriceFlag(name: string, raw: string | undefined): number | null | undefined {
  return raw === 'default' ? null : priceFlag(name, raw)
}

function discountFlag(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined
  const n = Number(raw.trim() === '' ? Number.NaN : raw)
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new CliError(
      `--batch-discount must be a fraction from 0 to 1 (0.5 = half price), got "${raw}"`,
      EXIT.usage,
    )
  return n
}

/** A provider whose runs are paid: the lexical baseline makes no calls, so it has nothing to price. */
function pricedProvider(raw: string): Exclude<ReturnType<typeof providerOf>, 'lexical'> {
  const provider = providerOf(raw)
  if (provider === 'lexical')
    throw new CliError('--provider lexical makes no calls, so it has no prices', EXIT.usage)
  return provider
}

export function registerModelsCommands(program: Command): void {
  const models = program.command('models').description('Models: what each honours, and their prices')

  models
    .command('list')
    .description('The models this workspace has recorded: prices per million tokens and what each honours')
    .option('--workspace <db>', 'workspace file')
    .option('--json', 'print the result as JSON')
    .action(async (f: { workspace?: string; json?: boolean }) => {
      await withWorkspace(f.workspace, async (_ws, s) => {
        const all = await s.call('judges.models', {})
        printResult(Boolean(f.json), all, () =>
          all.length === 0
            ? 'no models recorded: every run\'s cost reads "no price set" until you set prices with `factlab models price`'
            : all.map(modelLine).join('\n'),
        )
      })
    })

  models
    .command('price')
    .description(
      "Set a model's prices per million tokens (as the model panel does) for one server address, the --base-url or else the provider's default: runs created afterwards with that address are priced with them, runs made with earlier prices keep theirs, and runs made while the model had no price take these. A price of 0 counts as not set",
    )
    .option('--workspace <db>', 'workspace file')
    .requiredOption('--provider <name>', 'openai, anthropic or openai-compatible')
    .requiredOption('--model <name>', 'model name as the provider knows it')
    .option(
      '--base-url <url>',
      "the server address these prices are for, exactly as the runs give it (a model is priced per address); without it, the provider's default address (runs made without --base-url)",
    )
    .option('--input <price>', 'per million input tokens')
    .option('--output <price>', 'per million output tokens')
    .option(
      '--cache-read <price>',
      "per million prompt-cache read tokens, or default (the provider's usual ratio)",
    )
    .option(
      '--cache-write <price>',
      "per million prompt-cache write tokens, or default (the provider's usual ratio)",
    )
    .option('--batch-discount <fraction>', 'taken off both prices in batch mode (default 0.5: half price)')
    .option('--json', 'print the result as JSON')
    .action(async (f: PriceFlags) => {
      const provider = pricedProvider(f.provider)
      const input = priceFlag('--input', f.input)
      const output = priceFlag('--output', f.output)
      const cacheRead = cachePriceFlag('--cache-read', f.cacheRead)
      const cacheWrite = cachePriceFlag('--cache-write', f.cacheWrite)
      const batchDiscount = discountFlag(f.batchDiscount)
      if ([input, output, cacheRead, cacheWrite, batchDiscount].every((v) => v === undefined))
        throw new CliError(
          'give at least one of --input, --output, --cache-read, --cache-write, --batch-discount',
          EXIT.usage,
        )
      const baseUrl = baseUrlFlag(f.baseUrl) ?? ''
      if (provider === 'openai-compatible' && baseUrl === '')
        throw new CliError(
          'openai-compatible needs --base-url: its runs all give one, and a price is recorded per address (for example http://localhost:11434/v1)',
          EXIT.usage,
        )
      await withWorkspace(f.workspace, async (_ws, s) => {
        // What is not given stays as recorded (capabilities included), through the app's own calls.
        const key = { provider, model: f.model, baseUrl }
        const current = await s.call('judges.model', key)
        const saved = await s.call('judges.saveModel', {
          ...current,
          ...(input !== undefined ? { priceInputPerMTok: input } : {}),
          ...(output !== undefined ? { priceOutputPerMTok: output } : {}),
          ...(cacheRead !== undefined ? { priceCacheReadPerMTok: cacheRead } : {}),
          ...(cacheWrite !== undefined ? { priceCacheWritePerMTok: cacheWrite } : {}),
          ...(batchDiscount !== undefined ? { batchDiscount } : {}),
        })
        printResult(Boolean(f.json), saved, () => `${modelLine(saved)}\n${pricedAddressLine(saved)}`)
      })
    })

  models
    .command('probe')
    .description(
      'Send one tiny request per capability (tools, forced tool choice, strict schema, JSON mode, json_schema) and record what the server honours',
    )
    .option('--workspace <db>', 'workspace file')
    .requiredOption('--provider <name>', 'openai-compatible (or openai)')
    .requiredOption('--model <name>', 'model name as the server knows it')
    .option('--base-url <url>', 'server URL, e.g. http://localhost:11434/v1')
    .option('--json', 'print the result as JSON')
    .action(async (f: ModelFlags) => {
      const provider = providerOf(f.provider)
      const baseUrl = baseUrlFlag(f.baseUrl) ?? ''
      await withWorkspace(f.workspace, async (ws) => {
        let out: Awaited<ReturnType<typeof detectModel>>
        try {
          out = await detectModel(ws.db, {
            provider,
            model: f.model,
            baseUrl,
            apiKey: provider === 'lexical' ? null : keyStore().get(provider),
          })
        } catch (error) {
          throw new CliError(error instanceof Error ? error.message : String(error))
        }
        printResult(Boolean(f.json), out, () =>
          [
            ...probeLines(out.results, out.model.capabilities),
            `recorded for ${provider}/${f.model}: ${capabilityList(out.model.capabilities).join(', ') || 'none'}`,
          ].join('\n'),
        )
      })
    })
}
