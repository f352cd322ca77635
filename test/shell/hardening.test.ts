import { pathToFileURL } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import { CONTENT_SECURITY_POLICY, CSP_META_TAG } from '../../src/main/shell/csp'
import { buildMenuTemplate, type MenuActions } from '../../src/main/shell/menu'
import { isPermissionAllowed, isTrustedRendererUrl } from '../../src/main/shell/trust'
import { buildWebPreferences } from '../../src/main/shell/webPreferences'

describe('renderer privileges', () => {
  it('pins the window webPreferences', () => {
    expect(buildWebPreferences('/app/out/preload/index.cjs')).toEqual({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      disableBlinkFeatures: 'Auxclick',
    })
  })

  it('pins the Content-Security-Policy', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    )
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|\*|http:|https:/)
    // The meta tag drops only frame-ancestors, which browsers ignore there.
    expect(CSP_META_TAG).toBe(
      `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY.replace("; frame-ancestors 'none'", '')}" />`,
    )
  })
})

describe('IPC sender check', () => {
  const indexHtml = '/app/out/renderer/index.html'
  const file = { kind: 'file', indexHtml } as const

  it("accepts only the app's own page", () => {
    expect(isTrustedRendererUrl(pathToFileURL(indexHtml).href, file)).toBe(true)
    expect(isTrustedRendererUrl(`${pathToFileURL(indexHtml).href}#/annotate`, file)).toBe(true)
    for (const url of [
      pathToFileURL('/app/out/renderer/other.html').href,
      pathToFileURL('/tmp/evil/index.html').href,
      'file://remote-host/app/out/renderer/index.html',
      'https://evil.example/index.html',
      'about:blank',
      'not a url',
    ])
      expect(isTrustedRendererUrl(url, file), url).toBe(false)
  })

  it('accepts the dev server origin in development only', () => {
    const dev = { kind: 'dev', url: 'http://localhost:5173/' } as const
    expect(isTrustedRendererUrl('http://localhost:5173/index.html', dev)).toBe(true)
    expect(isTrustedRendererUrl('http://localhost:5174/', dev)).toBe(false)
    expect(isTrustedRendererUrl('http://localhost:5173/', file)).toBe(false)
  })
})

describe('web permissions', () => {
  it('grants only clipboard writes, and only to the app page', () => {
    const source = { kind: 'file', indexHtml: '/app/out/renderer/index.html' } as const
    const own = pathToFileURL(source.indexHtml).href
    expect(isPermissionAllowed('clipboard-sanitized-write', own, source)).toBe(true)
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://evil.example/', source)).toBe(false)
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read'])
      expect(isPermissionAllowed(permission, own, source), permission).toBe(false)
  })
})

describe('menu', () => {
  it('offers New/Open workspace, Import, Export and Switch annotator, each wired to its action', () => {
    const actions: MenuActions = {
      newWorkspace: vi.fn(),
      openWorkspace: vi.fn(),
      importData: vi.fn(),
      exportData: vi.fn(),
      switchAnnotator: vi.fn(),
    }
    const template = buildMenuTemplate(actions, 'linux')
    const fileMenu = template.find((m) => m.label === 'File')
    const items = Array.isArray(fileMenu?.submenu) ? fileMenu.submenu : []
    const byLabel = new Map(items.filter((i) => i.label).map((i) => [i.label, i]))
    const wiring: [string, keyof MenuActions][] = [
      ['New Workspace…', 'newWorkspace'],
      ['Open Workspace…', 'openWorkspace'],
      ['Import…', 'importData'],
      ['Export…', 'exportData'],
      ['Switch Annotator…', 'switchAnnotator'],
    ]
    for (const [label, action] of wiring) {
      const item = byLabel.get(label)
      expect(item, label).toBeDefined()
      // Electron passes (menuItem, window, event); the actions ignore them.
      const click = item?.click as unknown as (() => void) | undefined
      click?.()
      expect(actions[action]).toHaveBeenCalledTimes(1)
    }
    expect(buildMenuTemplate(actions, 'darwin')[0]).toEqual({ role: 'appMenu' })
  })
})
