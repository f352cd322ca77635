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
