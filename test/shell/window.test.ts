import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import { buildWebPreferences } from '../../src/main/shell/webPreferences'
import { tmpDirs } from '../helpers/tmp'

type Listener = (...args: unknown[]) => unknown

/** Stand-ins for the few Electron objects createMainWindow touches, recording what it asks for. */
const made: FakeWindow[] = []
class FakeContents {
  readonly on_ = new Map<string, Listener>()
  openHandler: Listener | null = null
  on(name: string, fn: Listener) {
    this.on_.set(name, fn)
    return this
  }
  setWindowOpenHandler(fn: Listener) {
    this.openHandler = fn
  }
}
class FakeWindow {
  readonly webContents = new FakeContents()
  readonly events = new Map<string, Listener>()
  constructor(readonly options: Record<string, unknown>) {
    made.push(this)
  }
  once(name: string, fn: Listener) {
    this.events.set(name, fn)
  }
  on(name: string, fn: Listener) {
    this.events.set(name, fn)
  }
  maximize() {}
  show() {}
  loadFile() {
    return Promise.resolve()
  }
  loadURL() {
    return Promise.resolve()
  }
  getNormalBounds() {
    return { x: 10, y: 20, width: 900, height: 600 }
  }
  isMaximized() {
    return false
  }
}

vi.mock('electron', () => ({
  BrowserWindow: FakeWindow,
  screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
}))

const tmp = tmpDirs()

describe('main window', () => {
  it('uses exactly the pinned webPreferences and blocks navigation, new windows and webviews', async () => {
    const { createMainWindow } = await import('../../src/main/shell/window')
    const indexHtml = '/app/out/renderer/index.html'
    const stateFile = join(tmp(), 'window-state.json')
    createMainWindow({
      preloadPath: '/app/out/preload/index.cjs',
      source: { kind: 'file', indexHtml },
      stateFile,
    })
    const win = made.at(-1)!
    expect(win.options.webPreferences).toEqual(buildWebPreferences('/app/out/preload/index.cjs'))

    const contents = win.webContents
    expect(contents.openHandler?.({ url: 'https://evil.example' })).toEqual({ action: 'deny' })
    for (const [event, url] of [
      ['will-navigate', 'https://evil.example/'],
      ['will-redirect', 'https://evil.example/'],
      ['will-attach-webview', undefined],
    ] as const) {
      const preventDefault = vi.fn()
      contents.on_.get(event)?.({ preventDefault }, url)
      expect(preventDefault, event).toHaveBeenCalled()
    }
    const stay = vi.fn()
    contents.on_.get('will-navigate')?.({ preventDefault: stay }, pathToFileURL(indexHtml).href)
    expect(stay).not.toHaveBeenCalled()
  })

  it('remembers its bounds on close and reopens there', async () => {
    const { createMainWindow } = await import('../../src/main/shell/window')
    const stateFile = join(tmp(), 'window-state.json')
    const source = { kind: 'file', indexHtml: '/app/index.html' } as const
    createMainWindow({ preloadPath: '/p.cjs', source, stateFile })
    made.at(-1)!.events.get('close')?.()
    createMainWindow({ preloadPath: '/p.cjs', source, stateFile })
    expect(made.at(-1)!.options).toMatchObject({ x: 10, y: 20, width: 900, height: 600 })
  })
})
