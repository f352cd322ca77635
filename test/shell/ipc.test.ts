import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AppContext } from '../../src/main/app/context'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { CALL_NAMES } from '../../src/shared/contract'
import { tmpDirs } from '../helpers/tmp'

type Invoke = (event: unknown, input: unknown) => Promise<unknown>
const channels = new Map<string, Invoke>()

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, fn: Invoke) => channels.set(channel, fn),
    removeHandler: (channel: string) => channels.delete(channel),
  },
}))

const tmp = tmpDirs()
let ctx: AppContext | null = null
afterEach(() => {
  ctx?.close()
  ctx = null
})

const indexHtml = '/app/out/renderer/index.html'
const topFrame = (url: string) => ({ senderFrame: { url, parent: null } })

describe('IPC binding', () => {
  it('binds one channel per call and refuses callers that are not the app page', async () => {
    const { registerCalls } = await import('../../src/main/shell/ipc')
    const file = join(tmp(), 'w.factlab')
    ctx = new AppContext(file, { driver: 'app' })
    const unregister = registerCalls(buildHandlers(ctx), { kind: 'file', indexHtml }, () => file)
    expect([...channels.keys()].sort()).toEqual(CALL_NAMES.map((n) => `factlab:${n}`).sort())

    const ensure = channels.get('factlab:workspace.ensureAnnotator')!
    const own = pathToFileURL(indexHtml).href
    expect(await ensure(topFrame(own), { name: 'Ana' })).toMatchObject({ ok: true, value: { name: 'Ana' } })

    const subFrame = { senderFrame: { url: own, parent: { url: own } } }
    for (const event of [topFrame('https://evil.example/'), subFrame, { senderFrame: null }]) {
      const result = await ensure(event, { name: 'Mallory' })
      expect(result).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^Refused/) } })
    }
    const names = (await channels.get('factlab:workspace.annotators')!(topFrame(own), {})) as {
      value: { name: string }[]
    }
    expect(names.value.map((a) => a.name)).toEqual(['Ana'])
    unregister()
    expect(channels.size).toBe(0)
  })
})
