import { beforeEach, describe, expect, it, vi } from 'vitest'
import { CALL_NAMES, type FactlabBridge } from '../../src/shared/contract'

// The preload runs inside Electron; here its two Electron objects are stand-ins that record use.
const exposed = new Map<string, unknown>()
const invoke = vi.fn((_channel: string, _input: unknown) => Promise.resolve({ ok: true, value: null }))
const listeners = new Map<string, (event: unknown, ...args: unknown[]) => void>()
const getPathForFile = vi.fn((file: { name: string }) => `/home/ana/${file.name}`)

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => exposed.set(key, value) },
  ipcRenderer: {
    invoke,
    on: (channel: string, fn: (event: unknown, ...args: unknown[]) => void) => listeners.set(channel, fn),
    removeListener: (channel: string) => listeners.delete(channel),
  },
  webUtils: { getPathForFile },
}))

beforeEach(() => invoke.mockClear())

async function bridge(): Promise<FactlabBridge> {
  await import('../../src/preload/index')
  return exposed.get('factlab') as FactlabBridge
}

describe('preload bridge', () => {
  it('exposes one function per contract call and nothing else', async () => {
    const b = await bridge()
    expect([...exposed.keys()]).toEqual(['factlab'])
    expect(Object.keys(b).sort()).toEqual(['calls', 'onEvent', 'pathForFile'])
    expect(Object.keys(b.calls).sort()).toEqual([...CALL_NAMES].sort())
    expect(Object.isFrozen(b)).toBe(true)
  })

  it('sends each call on its own channel', async () => {
    const b = await bridge()
    await b.calls['workspace.info']?.({})
    expect(invoke).toHaveBeenCalledWith('factlab:workspace.info', {})
  })

  it('tells the page where a picked file lives on disk', async () => {
    const b = await bridge()
    const file = new File(['{}'], 'big.jsonl')
    expect(b.pathForFile?.(file)).toBe('/home/ana/big.jsonl')
    expect(getPathForFile).toHaveBeenCalledWith(file)
  })

  it('delivers known events and drops unknown ones, until unsubscribed', async () => {
    const b = await bridge()
    const seen: unknown[] = []
    const off = b.onEvent((name, payload) => seen.push([name, payload]))
    const deliver = listeners.get('factlab:event')
    deliver?.({}, 'workspace.changed', { file: 'a.factlab' })
    deliver?.({}, 'not.an.event', {})
    expect(seen).toEqual([['workspace.changed', { file: 'a.factlab' }]])
    off()
    expect(listeners.has('factlab:event')).toBe(false)
  })
})
