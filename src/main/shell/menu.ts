import type { MenuItemConstructorOptions } from 'electron'

export interface MenuActions {
  newWorkspace(): void
  openWorkspace(): void
  importData(): void
  exportData(): void
  switchAnnotator(): void
}

/** The application menu; the actions live in index.ts so this stays a plain description. */
export function buildMenuTemplate(
  actions: MenuActions,
  platform: NodeJS.Platform,
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin'
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'New Workspace…', accelerator: 'CmdOrCtrl+Shift+N', click: () => actions.newWorkspace() },
      { label: 'Open Workspace…', accelerator: 'CmdOrCtrl+O', click: () => actions.openWorkspace() },
      { type: 'separator' },
      { label: 'Import…', accelerator: 'CmdOrCtrl+I', click: () => actions.importData() },
      { label: 'Export…', accelerator: 'CmdOrCtrl+E', click: () => actions.exportData() },
      { type: 'separator' },
      {
        label: 'Switch Annotator…',
        accelerator: 'CmdOrCtrl+Shift+A',
        click: () => actions.switchAnnotator(),
      },
      { type: 'separator' },
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  }
  const template: MenuItemConstructorOptions[] = [
    file,
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  ]
  return mac ? [{ role: 'appMenu' }, ...template] : template
}
