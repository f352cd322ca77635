// shell/ is the Electron shell, the only main-process code that imports electron: the window and
// its hardening, the menu, IPC binding, the OS keychain and the workspace dialogs.
import { BrowserWindow, dialog, type Session, screen } from 'electron'
import { CONTENT_SECURITY_POLICY } from './csp'
import { isPermissionAllowed, isTrustedRendererUrl, type RendererSource } from './trust'
import { buildWebPreferences } from './webPreferences'
import { fitToDisplays, loadWindowState, saveWindowState } from './windowState'

export interface WindowOptions {
  preloadPath: string
  source: RendererSource
  /** JSON file in userData holding the last bounds. */
  stateFile: string
}

/**
 * Session-wide rules: every response carries the CSP (the meta tag in index.html covers file://,
 * which has no headers), and no web permission (camera, notifications, …) is granted beyond
 * clipboard writes from the app's own page.
 */
export function hardenSession(session: Session, source: RendererSource): void {
  // The dev server's hot reload needs inline scripts, so the header is for the built app only.
  if (source.kind === 'file') {
    session.webRequest.onHeadersReceived((details, callback) => {
      callback({
        responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
      })
    })
  }
  session.setPermissionRequestHandler((contents, permission, callback) =>
    callback(isPermissionAllowed(permission, contents.getURL(), source)),
  )
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    isPermissionAllowed(permission, details.requestingUrl ?? requestingOrigin, source),
  )
}

export function createMainWindow(opts: WindowOptions): BrowserWindow {
  const remembered = loadWindowState(opts.stateFile)
  const bounds = fitToDisplays(
    remembered,
    screen.getAllDisplays().map((d) => d.workArea),
  )
  const win = new BrowserWindow({
    ...bounds,
    minWidth: 800,
    minHeight: 560,
    show: false,
    title: 'FactLab',
    // The pinned preferences, with the security switches restated as literals: Electronegativity
    // reads this object statically and cannot follow the function call.
    webPreferences: {
      ...buildWebPreferences(opts.preloadPath),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      disableBlinkFeatures: 'Auxclick',
    },
  })
  if (bounds.maximized) win.maximize()
  win.once('ready-to-show', () => win.show())

  const contents = win.webContents
  // The app is one page: any navigation away from it (a dropped file, a link) is refused.
  contents.on('will-navigate', (event, url) => {
    if (!isTrustedRendererUrl(url, opts.source)) event.preventDefault()
  })
  contents.on('will-redirect', (event) => event.preventDefault())
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
  // The page holds back closing while labels are not yet acknowledged; the person decides.
  contents.on('will-prevent-unload', (event) => {
    const choice = dialog.showMessageBoxSync(win, {
      type: 'question',
      buttons: ['Stay', 'Close anyway'],
      defaultId: 0,
      cancelId: 0,
      message: 'Some labels are still being saved.',
      detail:
        'Stay a moment until the indicator says "Saved", or close now and lose the labels not yet saved.',
    })
    if (choice === 1) event.preventDefault()
  })

  win.on('close', () => {
    const normal = win.getNormalBounds()
    try {
      saveWindowState(opts.stateFile, { ...normal, maximized: win.isMaximized() })
    } catch (error) {
      // Losing the window position is not worth blocking the close over.
      console.error('Could not remember the window position:', error)
    }
  })

  if (opts.source.kind === 'dev') void win.loadURL(opts.source.url)
  else void win.loadFile(opts.source.indexHtml)
  return win
}
