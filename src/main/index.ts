// The Electron entry: opens the workspace through the composition root (app/context, app/services),
// binds the contract to IPC and opens the window. Everything else in src/main runs without Electron.
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { app, BrowserWindow, dialog, Menu, session } from 'electron'
import { AppContext } from './app/context'
import { defaultWorkspacePath, userDataDir } from './app/paths'
import { loadDemoIfEmpty } from './demo/loadDemo'
import { setKeyStore } from './providers/keys'
import { buildHandlers } from './rpc/handlers'
import { forwardEvents, registerCalls } from './shell/ipc'
import { SafeKeyStore } from './shell/keyStore'
import { buildMenuTemplate } from './shell/menu'
import type { RendererSource } from './shell/trust'
import { createMainWindow, hardenSession } from './shell/window'
import { newWorkspace, openWorkspace } from './shell/workspaceDialogs'
import { backupOnOpen } from './store/backups'

const here = dirname(fileURLToPath(import.meta.url))
const devUrl = process.env.ELECTRON_RENDERER_URL
const source: RendererSource =
  !app.isPackaged && devUrl
    ? { kind: 'dev', url: devUrl }
    : { kind: 'file', indexHtml: join(here, '..', 'renderer', 'index.html') }

// Same folder as browser mode, so both open the same default workspace.
app.setPath('userData', userDataDir())
app.enableSandbox()

// Whatever web contents ever appear (dev tools aside), none may open windows, navigate or embed.
app.on('web-contents-created', (_event, contents) => {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
  contents.on('will-attach-webview', (event) => event.preventDefault())
})

let ctx: AppContext | null = null

async function start(): Promise<void> {
  hardenSession(session.defaultSession, source)
  setKeyStore(new SafeKeyStore(join(app.getPath('userData'), 'keys.json')))
  const file = defaultWorkspacePath()
  const existed = existsSync(file)
  const context = new AppContext(file, { driver: 'app' })
  ctx = context
  loadDemoIfEmpty(context.workspace)
  await backupOnOpen(context.workspace.db, file, existed)
  registerCalls(buildHandlers(context), source, () => context.workspace.file)

  const win = createMainWindow({
    preloadPath: join(here, '..', 'preload', 'index.cjs'),
    source,
    stateFile: join(app.getPath('userData'), 'window-state.json'),
  })
  win.setTitle(`FactLab — ${file}`)
  forwardEvents(context, win)
  const template = buildMenuTemplate(
    {
      newWorkspace: () => void newWorkspace(context, win, app.getPath('documents')),
      openWorkspace: () => void openWorkspace(context, win),
      importData: () => context.events.emit('app.navigate', { view: 'import' }),
      exportData: () => context.events.emit('app.navigate', { view: 'export' }),
      switchAnnotator: () => context.events.emit('app.navigate', { view: 'annotator' }),
    },
    process.platform,
  )
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))
}

if (!app.requestSingleInstanceLock()) {
  // A second copy would open the same workspace file; hand over to the first one instead.
  app.quit()
} else {
  app.on('second-instance', () => {
    const win = BrowserWindow.getAllWindows()[0]
    if (win) {
      if (win.isMinimized()) win.restore()
      win.focus()
    }
  })
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error)
      dialog.showErrorBox('FactLab could not start', message)
      app.exit(1)
    })
  app.on('window-all-closed', () => app.quit())
  app.on('will-quit', () => {
    ctx?.close()
    ctx = null
  })
}
