// The checks `judge` flags meet before a run exists, and the notes and refusals about a run after:
// kept apart from judge.ts so the command file stays a list of commands.

import type { Workspace } from '../../app/workspace'
import { getRun, type RunRecord, type RunSummary } from '../../runs/repo'
import { datasetVariants } from '../../store/repos/datasets'
import { CliError, EXIT } from '../util'

/** The flags the lexical baseline's settings come from. */
export interface LexicalFlags {
  provider: string
  model: string
  lexicalMetric?: string
  lexicalThreshold?: string
  lexicalTokens?: string
}

export const LEXICAL_METRICS = ['rouge1', 'rouge2', 'rougeL', 'overlap'] as const
const isLexicalMetric = (m: string) => (LEXICAL_METRICS as readonly string[]).includes(m)

/**
 * The lexical baseline's settings from flags; `--model rouge2` alone picks the metric too. Reports
 * name a run by its model, so a model that is no metric (`rouge9`) is refused unless
 * `--lexical-metric` says which metric it is: otherwise a rougeL run would be shown as "rouge9".
 */
export function lexicalSettings(f: LexicalFlags): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (f.lexicalMetric !== undefined && !isLexicalMetric(f.lexicalMetric))
    throw new CliError(
      `--lexical-metric must be one of ${LEXICAL_METRICS.join(', ')}, got "${f.lexicalMetric}"`,
      EXIT.usage,
    )
  if (f.provider === 'lexical') {
    if (isLexicalMetric(f.model)) {
      if (f.lexicalMetric !== undefined && f.lexicalMetric !== f.model)
        throw new CliError(
          `--model ${f.model} and --lexical-metric ${f.lexicalMetric} name two different metrics; give one`,
          EXIT.usage,
        )
      out.lexicalMetric = f.model
    } else if (f.lexicalMetric === undefined)
      throw new CliError(
        `--provider lexical: --model names the metric, one of ${LEXICAL_METRICS.join(', ')}, got "${f.model}" (to give the run a name of your own, add --lexical-metric)`,
        EXIT.usage,
      )
  }
  if (f.lexicalMetric !== undefined) out.lexicalMetric = f.lexicalMetric
  if (f.lexicalThreshold !== undefined) {
    const t = Number(f.lexicalThreshold)
    if (!Number.isFinite(t) || t < 0 || t > 1)
      throw new CliError('--lexical-threshold must be a number from 0 to 1', EXIT.usage)
    out.lexicalThreshold = t
  }
  if (f.lexicalTokens !== undefined) {
    if (f.lexicalTokens !== 'unicode' && f.lexicalTokens !== 'ascii')
      throw new CliError('--lexical-tokens must be unicode or ascii', EXIT.usage)
    out.lexicalTokens = f.lexicalTokens
  }
  return out
}

const quoted = (xs: readonly string[]) => xs.map((x) => `"${x}"`).join(', ')

/**
 * `--variants a,b` as a list of the dataset's variants. A name the dataset does not have is
 * refused (as `label --variant` refuses it): it would otherwise slice away every candidate and
 * give an empty run that reports "done".
 */
export function variantsOf(ws: Workspace, datasetId: number, datasetName: string, raw: string): string[] {
  const names = [...new Set(raw.split(',').map((v) => v.trim()))].filter((v) => v !== '')
  if (names.length === 0) throw new CliError('--variants needs at least one variant name', EXIT.usage)
  const known = datasetVariants(ws.db, datasetId)
  const unknown = names.filter((n) => !known.includes(n))
  if (unknown.length > 0)
    throw new CliError(
      `--variants: dataset "${datasetName}" has no ${unknown.length === 1 ? 'variant' : 'variants'} ${quoted(unknown)} (it has ${known.length > 0 ? quoted(known) : 'none'})`,
    )
  return names
}

/**
 * The run a command names, refused the same way by every judge command (exit 1) before anything
 * is asked of it: through the app's call, `judge status` would say "failed: No run…" where
 * `judge resume` says "No run…".
 */
export function knownRun(ws: Workspace, runId: number): RunRecord {
  const missing = `No run with id ${runId}`
  try {
    return getRun(ws.db, runId)
  } catch (error) {
    // Only the missing run is the person's mistake; anything else (a damaged row) stays itself.
    if (error instanceof Error && error.message === missing) throw new CliError(missing)
    throw error
  }
}

/**
 * A run with no price, then or now, has an unknown cost, not a free one: say where the price is
 * set (this run takes it too: runs/pricing.ts), with the base URL its prices are kept under. A
 * local server may well cost nothing, so its note says that leaving it unpriced is fine then. A
 * run priced with prices entered after it was made says so.
 */
export function unpricedNote(run: RunRecord, s: RunSummary): string | null {
  const { provider, model, baseUrl } = run.config
  if (s.cost_basis === 'model')
    return `run ${s.run} was made before ${provider}/${model} had a price; its cost uses the prices entered since`
  if (provider !== 'openai' && provider !== 'anthropic' && provider !== 'openai-compatible') return null
  if (s.calls === 0 || s.cost_basis !== 'none') return null
  const url = baseUrl ? ` --base-url ${baseUrl}` : ''
  const command = `factlab models price --provider ${provider} --model ${model}${url} --input <per M tokens> --output <per M tokens>`
  const after = '(runs made without a price, this one included, are then priced with it)'
  if (provider === 'openai-compatible')
    return `${provider}/${model} at ${baseUrl ?? 'its server'} has no price recorded, so its cost is unknown (a server that charges nothing can stay so); if it charges per token, set its prices with: ${command} ${after}`
  return `${provider}/${model} has no price recorded, so its cost is unknown; set one with: ${command} ${after}`
}
