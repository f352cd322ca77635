import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { type BrowserWindow, dialog } from 'electron'
import type { AppContext } from '../app/context'
import { backupOnOpen } from '../store/backups'

const FILTERS = [{ name: 'FactLab workspace', extensions: ['factlab'] }]

async function switchTo(ctx: AppContext, win: BrowserWindow, file: string): Promise<void> {
  try {
    const existed = existsSync(file)
    await ctx.switchTo(file)
    win.setTitle(`FactLab — ${file}`)
    await backupOnOpen(ctx.workspace.db, file, existed)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    dialog.showErrorBox('FactLab could not open that workspace', `${file}\n\n${message}`)
  }
}

/**
 * File › New. Choosing an existing file opens it instead of replacing it: the save dialog's
 * "replace?" question must never cost anyone their labels.
 */
export async function newWorkspace(ctx: AppContext, win: BrowserWindow, folder: string): Promise<void> {
  const picked = await dialog.showSaveDialog(win, {
    title: 'New workspace',
    defaultPath: join(folder, 'untitled.factlab'),
    filters: FILTERS,
  })
  if (picked.canceled || !picked.filePath) return
  const file = picked.filePath.endsWith('.factlab') ? picked.filePath : `${picked.filePath}.factlab`
  if (existsSync(file)) {
    await dialog.showMessageBox(win, {
      type: 'info',
      message: 'That workspace already exists, so FactLab opens it as it is; nothing in it is replaced.',
    })
  }
  await switchTo(ctx, win, file)
}

export async function openWorkspace(ctx: AppContext, win: BrowserWindow): Promise<void> {
  const picked = await dialog.showOpenDialog(win, {
    title: 'Open workspace',
    properties: ['openFile'],
    filters: FILTERS,
  })
  const file = picked.filePaths[0]
  if (picked.canceled || !file) return
  await switchTo(ctx, win, file)
}
