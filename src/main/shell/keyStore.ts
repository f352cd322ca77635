import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { safeStorage } from 'electron'
import { z } from 'zod'
import type { ProviderName } from '../providers/client'
import type { KeyStore } from '../providers/keys'

const KeyFile = z.record(z.string(), z.string())

/**
 * API keys encrypted with Electron safeStorage in a file of the user-data folder (never the
 * workspace). On Linux desktops without a keyring safeStorage falls back to a fixed password
 * ('basic_text'): the key would be as good as plain text, so storing needs explicit consent.
 */
export class SafeKeyStore implements KeyStore {
  readonly source = 'safeStorage' as const

  constructor(private readonly file: string) {}

  plainTextOnly(): boolean {
    if (!safeStorage.isEncryptionAvailable()) return true
    if (process.platform !== 'linux') return false
    return safeStorage.getSelectedStorageBackend() === 'basic_text'
  }

  private read(): Record<string, string> {
    if (!existsSync(this.file)) return {}
    try {
      const parsed = KeyFile.safeParse(JSON.parse(readFileSync(this.file, 'utf8')))
      return parsed.success ? parsed.data : {}
    } catch {
      return {}
    }
  }

  get(provider: ProviderName): string | null {
    const stored = this.read()[provider]
    if (!stored) return null
    try {
      return safeStorage.decryptString(Buffer.from(stored, 'base64'))
    } catch {
      return null
    }
  }

  set(provider: ProviderName, key: string, opts: { confirmPlainText: boolean }): void {
    if (this.plainTextOnly() && !opts.confirmPlainText)
      throw new Error(
        'This desktop offers no keyring, so the key would be stored unprotected. Confirm to store it anyway, or set it as an environment variable instead.',
      )
    if (!safeStorage.isEncryptionAvailable())
      throw new Error('Encryption is not available on this system; set the key as an environment variable.')
    const all = this.read()
    all[provider] = safeStorage.encryptString(key).toString('base64')
    writeFileSync(this.file, JSON.stringify(all), { mode: 0o600 })
  }

  delete(provider: ProviderName): void {
    const all = this.read()
    delete all[provider]
    writeFileSync(this.file, JSON.stringify(all), { mode: 0o600 })
  }
}
