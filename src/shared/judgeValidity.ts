import { GENERATE_METHODS, type GenerateMethod, JUDGE_METHODS, type JudgeMethod } from './domain'

/*
 * Which provider can run which method: one list, read by the contract (a config that cannot work
 * is refused before it is saved or run) and by the Judges and Units views (they offer only what
 * would work). Pure: no I/O, no DOM.
 */

export const LLM_PROVIDERS = ['openai', 'anthropic', 'openai-compatible', 'lexical'] as const
export type LlmProviderName = (typeof LLM_PROVIDERS)[number]
export type RunMethodName = JudgeMethod | GenerateMethod

const LLM_JUDGE_METHODS = JUDGE_METHODS.filter((m) => m !== 'lexical')
const LLM_GENERATE_METHODS = GENERATE_METHODS.filter((m) => m !== 'sentences')

/** The judge methods each provider runs. `lexical` computes overlap and calls no model. */
export const PROVIDER_JUDGE_METHODS: Record<LlmProviderName, readonly JudgeMethod[]> = {
  openai: LLM_JUDGE_METHODS,
  anthropic: LLM_JUDGE_METHODS,
  'openai-compatible': LLM_JUDGE_METHODS,
  lexical: ['lexical'],
}

/**
 * The unit-generation methods each provider runs (offered in the Units view, not the Judges
 * view). Sentence splitting needs no model, so only the provider that calls none offers it.
 */
export const PROVIDER_GENERATE_METHODS: Record<LlmProviderName, readonly GenerateMethod[]> = {
  openai: LLM_GENERATE_METHODS,
  anthropic: LLM_GENERATE_METHODS,
  'openai-compatible': LLM_GENERATE_METHODS,
  lexical: ['sentences'],
}

/** The model name a provider starts with when none is typed (the lexical metric). */
export const DEFAULT_MODEL: Partial<Record<LlmProviderName, string>> = { lexical: 'rougeL' }

export function isGenerateMethod(method: string): method is GenerateMethod {
  return (GENERATE_METHODS as readonly string[]).includes(method)
}

/** Why `provider` cannot run `method`, or null when it can. */
export function methodProblem(provider: LlmProviderName, method: RunMethodName): string | null {
  const runs: readonly string[] = [
    ...PROVIDER_JUDGE_METHODS[provider],
    ...PROVIDER_GENERATE_METHODS[provider],
  ]
  if (runs.includes(method)) return null
  if (provider === 'lexical')
    return `The lexical provider calls no model: it judges with the lexical method only (and splits answers into sentences for the Units view); choose an LLM provider for ${method}`
  if (method === 'lexical') return 'The lexical method runs on the lexical provider only (it calls no model)'
  return `${provider} cannot run ${method}; it runs ${runs.join(', ')}`
}

/**
 * Why a base URL cannot be used, or null when it can (or is left empty: the provider's own API).
 * A judge run sends every call there, so a typo found only then costs a run of failed calls.
 */
export function baseUrlProblem(url: string | null | undefined): string | null {
  const raw = url?.trim()
  if (!raw) return null
  const example = 'for example http://localhost:11434/v1'
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    return `The base URL "${raw}" is not a URL; give the server's address, ${example}`
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `The base URL "${raw}" must start with http:// or https:// (${example})`
  if (!parsed.hostname) return `The base URL "${raw}" names no host (${example})`
  return null
}

export interface ConfigDraft {
  name: string
  provider: LlmProviderName
  model: string
  baseUrl: string | null
  method: RunMethodName
}

/** Everything a config still lacks, in words, for the disabled Create button and the contract. */
export function configProblems(c: ConfigDraft): string[] {
  const out: string[] = []
  if (!c.name.trim()) out.push('a name')
  if (!c.model.trim())
    out.push(
      c.provider === 'lexical'
        ? 'a lexical metric as the model (rougeL, rouge1, rouge2, overlap)'
        : 'a model name',
    )
  if (c.provider === 'openai-compatible' && !c.baseUrl?.trim())
    out.push('a base URL for the openai-compatible server')
  if (baseUrlProblem(c.baseUrl))
    out.push(
      `a base URL such as http://localhost:11434/v1 ("${c.baseUrl?.trim()}" is not an http or https URL)`,
    )
  const problem = methodProblem(c.provider, c.method)
  if (problem) out.push(problem)
  return out
}
