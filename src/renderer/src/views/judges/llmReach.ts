import type { JudgeConfig } from '../../../../shared/contract/judges'

/**
 * Whether no LLM judge can run yet, so a new config starts as the lexical baseline and the view
 * says why. A key for openai or anthropic is one way to reach an LLM; a saved openai-compatible
 * config is another (a local server needs only its base URL, no key), so after one exists the
 * hint "no API key is set" would tell the person something beside the point.
 */
export function noLlmReachable(
  providers: readonly { provider: string; hasKey: boolean }[],
  configs: readonly Pick<JudgeConfig, 'provider'>[],
): boolean {
  const keyed = providers.some(
    (p) => p.provider !== 'lexical' && p.provider !== 'openai-compatible' && p.hasKey,
  )
  const local = configs.some((c) => c.provider === 'openai-compatible')
  return !keyed && !local
}

/**
 * The key a config's provider needs and lacks, with the variable that sets it in browser mode; null
 * where none is missing (the lexical baseline and a local openai-compatible server need no key).
 * The view says "no API key" only then: runs already listed were made and stay readable without one.
 */
export function missingKey(
  providers: readonly { provider: string; hasKey: boolean; envVar: string | null }[],
  provider: string,
): { provider: string; envVar: string | null } | null {
  if (provider === 'lexical' || provider === 'openai-compatible') return null
  const p = providers.find((x) => x.provider === provider)
  return p && !p.hasKey ? { provider: p.provider, envVar: p.envVar } : null
}
