import type { JudgeConfig } from '../../../../shared/contract/judges'

/** Where a new config starts: a provider, and the base URL of a local server. */
export interface NewConfigStart {
  provider: JudgeConfig['provider']
  baseUrl: string | null
}

/**
 * A new config starts from the provider the person last saved a config for (this visit's last
 * save, else the newest config), as Label Studio or LangSmith keep the last connection: someone
 * judging with a local server should not have to switch away from openai, and type the server's
 * address again, for every config. The lexical baseline is no provider to start an LLM judge
 * from, so it is passed over. Null: no such config, so the usual start.
 */
export function newConfigStart(
  configs: readonly Pick<JudgeConfig, 'id' | 'provider' | 'baseUrl'>[],
  lastSavedId: number | null,
): NewConfigStart | null {
  const llm = configs.filter((c) => c.provider !== 'lexical')
  const saved = llm.find((c) => c.id === lastSavedId)
  const newest = llm.reduce<(typeof llm)[number] | null>((a, c) => (a === null || c.id > a.id ? c : a), null)
  const from = saved ?? newest
  if (!from) return null
  // A base URL belongs to a local server; for openai and anthropic it is usually left empty.
  return { provider: from.provider, baseUrl: from.provider === 'openai-compatible' ? from.baseUrl : null }
}
