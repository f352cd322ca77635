import type { ProviderName } from './client'

export type KeySource = 'safeStorage' | 'env'

/**
 * Where API keys come from. Keys live only here, in memory or in the OS keychain: never in the
 * workspace, logs, raw request records or exports.
 */
export interface KeyStore {
  readonly source: KeySource
  get(provider: ProviderName): string | null
  /** Stores a key; refuses with a message when it cannot be kept safely (see SafeKeyStore). */
  set?(provider: ProviderName, key: string, opts: { confirmPlainText: boolean }): void
  delete?(provider: ProviderName): void
  /** True when storing would keep the key in plain text (some Linux desktops). */
  plainTextOnly?(): boolean
}

export const KEY_ENV_VARS: Record<Exclude<ProviderName, 'lexical'>, string> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  'openai-compatible': 'FACTLAB_OPENAI_COMPATIBLE_API_KEY',
}

/** CLI and browser mode: keys from environment variables only. */
export class EnvKeyStore implements KeyStore {
  readonly source = 'env' as const
  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  get(provider: ProviderName): string | null {
    if (provider === 'lexical') return null
    const value = this.env[KEY_ENV_VARS[provider]]
    return value && value.trim() !== '' ? value.trim() : null
  }
}

let current: KeyStore = new EnvKeyStore()

/** The desktop shell installs the safeStorage store at start-up; everything else uses env vars. */
export function setKeyStore(store: KeyStore): void {
  current = store
}

export function keyStore(): KeyStore {
  return current
}

/** Removes every occurrence of a key from a text before it is stored or shown (SDK error texts). */
export function redactKey(text: string, key: string | null | undefined): string {
  if (!key || key.length < 4) return text
  return text.split(key).join('[key]')
}

/** Why a run of this provider cannot start for want of a key, or null when it can. */
export function missingKey(provider: ProviderName, store: KeyStore = current): string | null {
  if (provider !== 'openai' && provider !== 'anthropic') return null
  if (store.get(provider)) return null
  return store.source === 'env'
    ? `No API key for ${provider}: set ${KEY_ENV_VARS[provider]} in the environment`
    : `No API key for ${provider}: store one in the Judges view`
}
