import type { WebPreferences } from 'electron'

/**
 * The renderer's privileges, pinned by a unit test: the page gets no Node, runs in Chromium's
 * sandbox, and reaches main only through the preload's bridge in its own isolated world.
 */
export function buildWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
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
    // Middle-click would otherwise try to open links in new windows (denied anyway by the shell).
    disableBlinkFeatures: 'Auxclick',
  }
}
