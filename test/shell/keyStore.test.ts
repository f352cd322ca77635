import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { SafeKeyStore } from '../../src/main/shell/keyStore'
import { tmpDirs } from '../helpers/tmp'

// A stand-in for Electron's safeStorage: a reversible scramble, and a backend the test chooses.
const keyring = vi.hoisted(() => ({ available: true, backend: 'gnome_libsecret' }))
vi.mock('electron', () => ({
  safeStorage: {
    isEncryptionAvailable: () => keyring.available,
    getSelectedStorageBackend: () => keyring.backend,
    encryptString: (s: string) => Buffer.from(`sealed:${[...s].reverse().join('')}`),
    decryptString: (b: Buffer) => {
      const text = b.toString()
      if (!text.startsWith('sealed:')) throw new Error('cannot decrypt')
      return [...text.slice('sealed:'.length)].reverse().join('')
    },
  },
}))

const KEY = 'sk-test-0123456789abcdef'
let file: string
const tmpDir = tmpDirs()
const platform = process.platform
afterAll(() => Object.defineProperty(process, 'platform', { value: platform }))

beforeEach(() => {
  keyring.available = true
  keyring.backend = 'gnome_libsecret'
  Object.defineProperty(process, 'platform', { value: 'linux' })
  file = join(tmpDir(), 'keys.json')
})

describe('API keys kept with safeStorage', () => {
  it('stores a key sealed, readable only by the owner, and gives it back', () => {
    const store = new SafeKeyStore(file)
    expect(store.plainTextOnly()).toBe(false)
    store.set('openai', KEY, { confirmPlainText: false })
    expect(store.get('openai')).toBe(KEY)
    expect(store.get('anthropic')).toBeNull()
    expect(readFileSync(file, 'utf8')).not.toContain(KEY)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    store.delete('openai')
    expect(store.get('openai')).toBeNull()
  })

  it('asks before storing where the desktop has no keyring, and stores nothing without consent', () => {
    keyring.backend = 'basic_text'
    const store = new SafeKeyStore(file)
    expect(store.plainTextOnly()).toBe(true)
    expect(() => store.set('openai', KEY, { confirmPlainText: false })).toThrow(/no keyring.*Confirm/)
    expect(() => readFileSync(file)).toThrow()
    store.set('openai', KEY, { confirmPlainText: true })
    expect(store.get('openai')).toBe(KEY)
  })

  it('refuses to store when encryption is unavailable, even with consent', () => {
    keyring.available = false
    const store = new SafeKeyStore(file)
    expect(store.plainTextOnly()).toBe(true)
    expect(() => store.set('anthropic', KEY, { confirmPlainText: true })).toThrow(/environment variable/)
    expect(store.get('anthropic')).toBeNull()
  })

  it('treats a damaged key file as holding no keys rather than failing', () => {
    writeFileSync(file, '{not json')
    const store = new SafeKeyStore(file)
    expect(store.get('openai')).toBeNull()
    writeFileSync(file, JSON.stringify({ openai: Buffer.from('garbage').toString('base64') }))
    expect(store.get('openai')).toBeNull()
  })
})
